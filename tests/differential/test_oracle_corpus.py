"""The oracle works: HoloDeck 0.7.1 accepts the real corpus and decides our cases as recorded.

Every file under ``tests/data/corpus/real`` was accepted by HoloDeck 0.7.1 when the corpus was
collected, so an oracle that rejects one of them is broken (wrong environment, missing
package, bad dummy value for a ``${VAR}``). Each file under ``cases/`` starts with a comment
recording what HoloDeck does with it, which shows the oracle can also say no.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.differential.differential_inputs import CASES, corpus_dir, yaml_files
from tests.differential.oracle_client import Verdict, run_oracle

pytestmark = pytest.mark.slow

_RECORDED = re.compile(r"^# holodeck 0\.7\.1: (accepts|rejects)\b")


def _show(path: Path, root: Path) -> str:
    return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)


def test_holodeck_accepts_every_corpus_file(oracle_python: Path) -> None:
    corpus = corpus_dir()
    files = yaml_files(corpus)

    verdicts = run_oracle(oracle_python, files)

    rejected = {
        _show(path, corpus): verdict.error
        for path, verdict in verdicts.items()
        if not verdict.accepted
    }
    assert rejected == {}, f"HoloDeck 0.7.1 rejected {len(rejected)} of {len(files)} corpus files"
    assert len(verdicts) >= 83  # the corpus README's count of kept agent and test-case files


def _recorded(path: Path) -> str:
    first_line = path.read_text(encoding="utf-8").split("\n", 1)[0]
    match = _RECORDED.match(first_line)
    assert match, f"{path} must start with '# holodeck 0.7.1: accepts|rejects (why)'"
    return match.group(1)


def test_oracle_decides_every_case_as_recorded(fixture_verdicts: dict[Path, Verdict]) -> None:
    cases = yaml_files(CASES)

    decided = {
        _show(path, CASES): "accepts" if fixture_verdicts[path].accepted else "rejects"
        for path in cases
    }

    assert decided == {_show(path, CASES): _recorded(path) for path in cases}, "\n".join(
        f"{_show(p, CASES)}: {fixture_verdicts[p].error}" for p in cases
    )
