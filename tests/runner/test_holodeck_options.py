"""Every option of HoloDeck 0.7.1's `holodeck test run` is an option of `run`, with its
meaning (docs/coming-from-holodeck.md has the table): each is given here the way a
`holodeck test` user types it, and its effect is asserted. `--force-ingest`/`-f` is in
test_vectorstore_run.py (it needs a vector store); `.env` in test_dotenv.py."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.runner.helpers import invoke, write

AGENT = '''
import threading

def factory():
    class Agent:
        def send(self, message):
            if message == "stall":
                threading.Event().wait(30)  # outlives any --timeout below
            return {"text": message.upper()}
    return Agent()
'''
SUITE = """
name: options
model: {provider: openai, name: gpt-4o}
instructions: {inline: Shout.}
test_cases:
  - name: first
    input: a
    ground_truth: A
    evaluations: [{metric: equality}]
  - name: second
    turns:
      - {input: b, ground_truth: B, evaluations: [{metric: equality}]}
      - {input: c, ground_truth: not C, evaluations: [{metric: equality}]}
  - name: stalls
    input: stall
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write(tmp_path, {"agent.yaml": SUITE, "shout.py": AGENT})
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str) -> tuple[int, str, str]:
    return invoke("run", "--agent", "shout:factory", *args)


def test_the_agent_file_defaults_to_agent_yaml_and_n_limits(project: Path) -> None:
    code, out, err = run("-n", "1", "-o", "report.json")  # no AGENT_CONFIG: ./agent.yaml
    assert code == 0, err
    report = json.loads((project / "report.json").read_text())
    assert [r["test_name"] for r in report["results"]] == ["first"]
    assert out.startswith("1 test case(s) run (1 turn(s)): 1 passed, 0 failed (100%)")
    code, _, _ = run("--limit", "2", "-q", "-o", "report.json")
    report = json.loads((project / "report.json").read_text())
    assert (code, [r["test_name"] for r in report["results"]]) == (1, ["first", "second"])


def test_timeout_bounds_each_turn(project: Path) -> None:
    code, _, _ = run("--timeout", "0.3", "-k", "stalls", "-q", "-o", "report.json")
    report = json.loads((project / "report.json").read_text())
    assert code == 1
    assert report["results"][0]["errors"] == ["Agent invocation timeout after 0.3s"]


def test_parallel_test_cases(project: Path) -> None:
    run("--parallel-test-cases", "2", "-n", "2", "-q", "-o", "report.json")
    report = json.loads((project / "report.json").read_text())
    assert report["environment"]["parallel_test_cases"] == "2"
    code, _, err = run("--parallel-test-cases", "0", "-n", "2")
    assert code == 2 and "parallel" in err


def test_quiet_and_verbose(project: Path) -> None:
    _, out, err = run("-q", "-n", "2")
    assert (err, out.count("\n")) == ("", 1)  # the summary alone
    _, out, err = run("-v", "-n", "2")
    lines = [re.sub(r"\d+ ms", "N ms", line) for line in err.splitlines()]
    assert lines == [
        "running 2 test case(s) (3 turn(s))",
        "PASS  first (1 turn, N ms)",
        "  PASS",
        "    equality PASS: score 1",
        "FAIL  second (2 turns, N ms): [turn 1] metric equality failed: score 0: not the "
        "ground truth (expected 'not C', got 'C')",
        "  turn 0 PASS",
        "    equality PASS: score 1",
        "  turn 1 FAIL",
        "    equality FAIL: score 0: not the ground truth",
    ]
    quiet_verbose = run("-v", "-q", "-n", "1")[2]
    assert re.sub(r"\d+ ms", "N ms", quiet_verbose).splitlines()[1:] == lines[1:4]  # -v wins


@pytest.mark.parametrize(
    ("name", "chosen", "starts"),
    [
        ("report.json", "markdown", "# Test report: `options`"),
        ("report.md", "json", "{"),
        ("report.txt", None, "{"),  # another extension: JSON, as `holodeck test` writes it
        ("report.md", None, "# Test report: `options`"),
    ],
)
def test_format_and_output(project: Path, name: str, chosen: str | None, starts: str) -> None:
    extra = ["--format", chosen] if chosen else []
    code, _, err = run("-q", "-n", "1", "--output", name, *extra)
    assert code == 0, err
    assert (project / name).read_text().startswith(starts)
    told = err.startswith(f"note: {name}: written as JSON, as holodeck test writes")
    assert told == (name == "report.txt")


def test_the_help_names_every_holodeck_option() -> None:
    _, out, _ = invoke("run", "--help")
    for option in (
        "--output", "--format", "--verbose", "-v", "--quiet", "-q", "--timeout",
        "--force-ingest", "-f", "--parallel-test-cases", "--limit", "-n",
    ):  # fmt: skip
        assert re.search(rf"(^|[\s,]){re.escape(option)}[\s,]", out), option
