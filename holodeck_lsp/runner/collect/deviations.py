"""The documented differences from `holodeck test` (docs/runner.md, "Differences from
`holodeck test`") that can be seen in a suite before it runs, each a warning code of
`check`: `run` starts with a warning for each one in the suite it runs, printed as `check`
prints it, and `run --strict-parity` makes them errors (exit 2, before any agent call).

Differences that only a run can show (an empty reply, a grader's score outside [0, 1], a
single-turn case that times out, a judge that fails) are not announced: they are in the
docs' list, and the report shows their outcome.
"""

from __future__ import annotations

import dataclasses

from holodeck_lsp.run_defaults import DIFFERENCES_DOC
from holodeck_lsp.runner.collect.loading import LoadedSuite
from holodeck_lsp.validation.diagnostics import Diagnostic, Severity

# Code -> what `holodeck test` would do with the suite instead.
DEVIATION_CODES: dict[str, str] = {
    "HL507": "runs a metric written `enabled: false`",
    "HL508": "grades every equality/numeric metric with the last one's flags",
    "HL509": "stops the whole run when a single-turn case's fail_on_error grader raises",
    "HL510": "refuses to start (exit 2) over a standard metric's judge model",
    "HL512": "refuses the agent when its backend starts (exit 3)",
    "HL513": "scores every rouge metric 0.0",
    "HL514": "compares a rated metric's threshold with its 1-5 rating, or does not run it",
}

Shown = dict[str, tuple[list[Diagnostic], "str | None"]]  # by file: diagnostics, file text


def deviations(suite: LoadedSuite) -> Shown:
    """The suite's warnings that are documented differences, by file."""
    found: Shown = {}
    for file, (diagnostics, text) in suite.warnings.items():
        kept = [d for d in diagnostics if d.code in DEVIATION_CODES]
        if kept:
            found[file] = (kept, text)
    return found


def as_errors(found: Shown) -> Shown:
    """The same differences as errors (`--strict-parity`)."""
    return {
        file: ([dataclasses.replace(d, severity=Severity.ERROR) for d in ds], text)
        for file, (ds, text) in found.items()
    }


def closing_line(found: Shown, strict: bool) -> str:
    """What follows the differences: how many, where they are documented, and the way to
    make them stop the run (or that they did)."""
    count = sum(len(ds) for ds, _ in found.values())
    codes = sorted({d.code for ds, _ in found.values() for d in ds})
    head = (
        f"{count} difference(s) from `holodeck test` ({', '.join(codes)}) can change this "
        f"suite's verdicts: {DIFFERENCES_DOC}"
    )
    tail = "stops the run" if strict else "makes them errors"
    return f"{head}; --strict-parity {tail}"
