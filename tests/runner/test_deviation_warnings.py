"""A suite that meets documented differences from `holodeck test` (HL507, HL508, ...): `run`
starts with the warnings `check` gives, codes and lines included; `--strict-parity` stops
the run on them (exit 2) before the agent is called. And `compare` says when the two
reports come from different runners or versions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.runner.helpers import invoke, write

AGENT = '''
from pathlib import Path

def factory():
    Path("called").write_text("the agent was built")
    class Agent:
        def send(self, message):
            return {"text": "Paris "}
    return Agent()
'''
SUITE = """
name: parity
model: {provider: openai, name: gpt-4o}
instructions: {inline: Answer.}
test_cases:
  - name: capital
    turns:
      - input: Capital of France?
        ground_truth: paris
        evaluations:
          - {metric: equality, case_insensitive: true, strip_whitespace: true}
          - {metric: bleu, threshold: 0.99, enabled: false}
  - name: other
    input: Again?
    ground_truth: PARIS
    evaluations:
      - {metric: equality}
"""
WARNINGS = """\
agent.yaml:10:22: warning HL508 `holodeck test` builds one equality evaluator per file, \
with the flags of the last equality metric declared (case_insensitive: false, \
strip_whitespace: false), and grades this metric with them (test case "capital": \
test_cases[0].turns[0].evaluations[0].metric)
            - {metric: equality, case_insensitive: true, strip_whitespace: true}
                       ^^^^^^^^
  note: agent.yaml:16:18: the last equality metric
agent.yaml:11:54: warning HL507 `holodeck test` runs this metric anyway (it honours \
`enabled` on code metrics only); `holodeck-lsp run` skips it (test case "capital": \
test_cases[0].turns[0].evaluations[1].enabled)
            - {metric: bleu, threshold: 0.99, enabled: false}
                                                       ^^^^^
"""
CLOSING = (
    "2 difference(s) from `holodeck test` (HL507, HL508) can change this suite's verdicts: "
    "docs/runner.md#differences-from-holodeck-test"
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write(tmp_path, {"agent.yaml": SUITE, "answers.py": AGENT})
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_run_starts_with_the_differences_check_warns_about(project: Path) -> None:
    code, out, err = invoke("run", "agent.yaml", "--agent", "answers:factory", "-q")
    # Under `holodeck test` the first case fails (the last equality's flags); here it passes.
    assert code == 1
    assert out.startswith("2 test case(s) run (2 turn(s)): 1 passed, 1 failed (50%)")
    assert err == WARNINGS + f"warning: {CLOSING}; --strict-parity makes them errors\n"
    _, check_out, _ = invoke("check", "agent.yaml")
    assert check_out.startswith(WARNINGS)  # as `check` prints them


def test_strict_parity_stops_before_the_agent_is_called(project: Path) -> None:
    code, out, err = invoke("run", "agent.yaml", "--agent", "answers:factory", "--strict-parity")
    assert (code, out) == (2, "")
    assert err == (
        WARNINGS.replace(": warning HL", ": error HL")
        + f"error: {CLOSING}; --strict-parity stops the run\n"
    )
    assert not (project / "called").exists()


def test_a_suite_without_differences_runs_quietly_with_strict_parity(project: Path) -> None:
    (project / "agent.yaml").write_text(SUITE.replace(", enabled: false", "").replace(
        "case_insensitive: true, strip_whitespace: true", ""
    ))  # fmt: skip
    code, _, err = invoke("run", "agent.yaml", "--agent", "answers:factory", "--strict-parity")
    assert (code, err.startswith("running 2 test case(s)")) == (1, True)


def test_compare_says_the_reports_come_from_different_versions(project: Path) -> None:
    invoke("run", "agent.yaml", "--agent", "answers:factory", "-q", "-o", "new.json")
    old = json.loads((project / "new.json").read_text())
    old["environment"]["holodeck_lsp_version"] = "0.0.9"
    (project / "old.json").write_text(json.dumps(old))
    code, out, _ = invoke("compare", "old.json", "new.json")
    assert code == 0
    assert out.splitlines()[2] == (
        "note: BASE and HEAD come from different versions (holodeck-lsp 0.0.9 (HoloDeck 0.7.1); "
        "holodeck-lsp 0.1.0 (HoloDeck 0.7.1)): a turn may have changed with the runner, not the "
        "agent"
    )
    _, markdown, _ = invoke("compare", "old.json", "new.json", "--format", "markdown")
    assert (
        "> **Note:** BASE and HEAD come from different versions (`holodeck-lsp 0.0.9 (HoloDeck "
        "0.7.1)`; `holodeck-lsp 0.1.0 (HoloDeck 0.7.1)`): a turn may have changed with the "
        "runner, not the agent.\n"
    ) in markdown
    _, same, _ = invoke("compare", "new.json", "new.json")
    assert "note:" not in same
