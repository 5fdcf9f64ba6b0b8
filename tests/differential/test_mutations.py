"""Mutants of files HoloDeck accepts get HoloDeck's verdict from ``holodeck-lsp check``.

A fixed, seeded set of mutants (see ``mutations.py``: dropped and misspelled keys, values of
the wrong type, edge numbers, bad matchers, tabs, ...) of the real corpus and the valid
fixtures is judged by HoloDeck 0.7.1 and by ``check``; every file where one refuses and the
other does not is listed with the mutations applied, HoloDeck's error and our diagnostics.

Larger campaigns with other seeds: ``python -m tests.differential.mutation_campaign``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.differential.check_runner import check_all
from tests.differential.differential_inputs import REPO
from tests.differential.mutation_campaign import judge
from tests.differential.mutations import generate
from tests.differential.oracle_client import run_oracle

pytestmark = pytest.mark.slow

SEED = 20250701
COUNT = 300


def test_generation_is_deterministic(tmp_path: Path) -> None:
    first = generate(SEED, 12, tmp_path / "a")
    second = generate(SEED, 12, tmp_path / "b")

    def contents(root: Path) -> dict[str, bytes]:
        return {
            str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
        }

    assert [m.mutations for m in first] == [m.mutations for m in second]
    assert contents(tmp_path / "a") == contents(tmp_path / "b")


def test_every_mutant_gets_holodecks_verdict(
    oracle_python: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    mutants = generate(SEED, COUNT, tmp_path_factory.mktemp("mutants"))

    disagreements = [d for d in judge(mutants, oracle_python) if d.excused is None]

    assert not disagreements, (
        f"{len(disagreements)} of {len(mutants)} mutants: holodeck-lsp's error verdict differs "
        "from HoloDeck 0.7.1's\n\n" + "\n\n".join(d.render() for d in disagreements)
    )


AGENT = b"""\
name: latin1-config
model: {provider: openai, name: gpt-4o}
instructions: {inline: Answer briefly.}
test_cases:
  - input: What is two plus two?
"""


def test_a_project_config_that_is_not_utf8_refuses_the_agent(
    oracle_python: Path, tmp_path: Path
) -> None:
    # Not a file under cases/: the recorded first line is read as UTF-8 there.
    (tmp_path / "agent.yaml").write_bytes(AGENT)
    (tmp_path / "config.yaml").write_bytes(b"execution:\n  cache_dir: caf\xe9\n")
    agent = (tmp_path / "agent.yaml").resolve()

    theirs = run_oracle(oracle_python, [agent])[agent]
    ours = check_all([agent], cwd=REPO)[agent]

    assert (theirs.accepted, theirs.error and theirs.error.split(":")[0]) == (
        False,
        "UnicodeDecodeError",
    )
    assert [(f.code, f.severity) for f in ours.findings] == [("HL604", "error")]


def test_a_message_quoting_a_lone_surrogate_prints_in_every_format() -> None:
    # A "\\ud800" escape reaches messages through names; printed raw, it cannot be encoded.
    case = REPO / "tests/differential/cases/surrogate-in-error.agent.yaml"
    printed = {}
    for form in ("text", "github", "sarif", "json"):
        done = subprocess.run(
            [sys.executable, "-c", "from holodeck_lsp.cli import main; main()", "check"]
            + ["--no-user-config", "--format", form, str(case)],
            capture_output=True,
            text=True,
            check=False,
        )
        printed[form] = (done.returncode, done.stderr)
        if form == "text":
            assert 'test case "weather\\ud800"' in done.stdout

    assert printed == {form: (1, "") for form in ("text", "github", "sarif", "json")}
