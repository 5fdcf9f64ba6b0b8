"""What the validation worker's forkserver loads before it forks a worker (importing this
module is its whole job): the validation code, loaded with the collector off; the models'
validators for a typical agent, built by validating a small one (pydantic builds them on
first use, a tenth of the first validation of a large suite otherwise); then all of it
frozen out of the collector's sight (`gc_policy.py`). Each worker forked from there starts
ready.

The warm-up is a hack (CONTRIBUTING, "Performance hacks"). Benchmark row: server, first
diagnostics. Off (`HOLODECK_LSP_WITHOUT=validator-warm-up`): the first job builds them.
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

from holodeck_lsp import gc_policy
from holodeck_lsp.hack_switches import hack_on

gc_policy.loading()

from holodeck_lsp.server import jobs, timing  # noqa: E402 - loaded with the collector off
from holodeck_lsp.validation.validate import ValidationContext, validate_text  # noqa: E402

log = logging.getLogger(__name__)
WARM_UP = """name: warm-up
model:
  provider: openai
  name: gpt-4o
instructions:
  inline: Warm up.
tools:
  - name: lookup
    type: function
    description: Look up a value.
    file: tools.py
    function: lookup
evaluations:
  metrics:
    - type: standard
      metric: numeric
      absolute_tolerance: 0.01
test_cases:
  - name: one
    turns:
      - input: a
        ground_truth: "1"
        expected_tools:
          - name: lookup
            count: 1
            args:
              row: {fuzzy: x}
              year: {regex: "^1$"}
        evaluations:
          - metric: equality
            strip_whitespace: true
      - input: b
        retrieval_context:
          - c
"""


def _warm_up() -> None:
    try:  # in a folder of its own: nothing of the machine's is read
        with tempfile.TemporaryDirectory(prefix="holodeck-lsp-warm-up-") as folder:
            validate_text(WARM_UP, Path(folder) / "agent.yaml",
                          ValidationContext(user_config_dir=None, max_text=jobs.MAX_TEXT))
    except Exception:  # a worker without warm validators still works
        log.exception("warming the validators up failed")


if hack_on("validator-warm-up"):
    _warm_up()
gc_policy.settle()
timing.mark("validation code loaded")
