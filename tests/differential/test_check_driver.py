"""The differential tests' way of running `check`: one result per file, as the command gives it."""

from __future__ import annotations

from pathlib import Path

from tests.differential.check_runner import check_all

REPO = Path(__file__).resolve().parents[2]

GOOD = """\
name: greeter
model: {provider: openai, name: gpt-4o}
instructions: {inline: Greet.}
test_cases:
  - input: hello
"""

BAD = GOOD + "    ground_truth: [not, a, string]\n"


def test_every_file_gets_its_own_exit_code_and_findings(tmp_path: Path) -> None:
    good, bad = tmp_path / "good" / "agent.yaml", tmp_path / "bad" / "agent.yaml"
    for path, text in ((good, GOOD), (bad, BAD)):
        path.parent.mkdir()
        path.write_text(text, encoding="utf-8")

    results = check_all([good, bad], cwd=REPO)

    assert sorted(results) == sorted([good.resolve(), bad.resolve()])
    assert [(r.exit_code, r.has_error, r.problem) for r in (results[good], results[bad])] == [
        (0, False, None),
        (1, True, None),
    ]
