"""The differential tests' way of running `check`: one result per file, as the command gives it."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import REPO
from tests.differential.check_runner import check_all

GOOD = """\
name: greeter
model: {provider: openai, name: gpt-4o}
instructions: {inline: Greet.}
test_cases:
  - input: hello
"""

BAD = GOOD + "    ground_truth: [not, a, string]\n"


def test_every_file_gets_its_own_exit_code_and_findings(tmp_path: Path) -> None:
    folder = tmp_path.resolve()  # check_all keys its results by resolved path
    good, bad = folder / "good" / "agent.yaml", folder / "bad" / "agent.yaml"
    for path, text in ((good, GOOD), (bad, BAD)):
        path.parent.mkdir()
        path.write_text(text, encoding="utf-8")

    results = check_all([good, bad], cwd=REPO)

    assert sorted(results) == sorted([good, bad])
    assert [(r.exit_code, r.has_error, r.problem) for r in (results[good], results[bad])] == [
        (0, False, None),
        (1, True, None),
    ]
