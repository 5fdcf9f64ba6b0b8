"""`--repeat K`: every attempt kept, pass^k and pass@k per case, per-turn pass rates, score
spread; `--pass-rule` decides the verdict; JUnit and Markdown mark flaky cases."""

from __future__ import annotations

import json
from pathlib import Path

from junitparser import JUnitXml

from tests.runner.faults import CASES, suite
from tests.runner.helpers import invoke, write

# Case 2's second session answers its turn 1 wrongly; case 4 always fails its turn 0.
FLAKY_AGENT = """
sessions = {}

def factory():
    class Agent:
        attempt = None

        def send(self, message):
            case = message[1]
            if self.attempt is None:
                sessions[case] = sessions.get(case, 0) + 1
                self.attempt = sessions[case]
            if (case, self.attempt, message) == ("2", 2, "Q2.1") or message == "Q4.0":
                return "wrong"
            return "A" + message[1:]
    return Agent()
"""


def repeated(tmp_path: Path, *args: str) -> tuple[int, str, dict, Path, Path]:  # type: ignore[type-arg]
    path = suite(tmp_path, "unused")
    write(tmp_path, {"flaky.py": FLAKY_AGENT})
    out, xml, md = (tmp_path / f"report.{ext}" for ext in ("json", "xml", "md"))
    code, stdout, err = invoke(
        "run",
        path,
        "-q",
        "--agent",
        "flaky:factory",
        "--repeat",
        "3",
        *args,
        "-o",
        out,
        "-o",
        xml,
        "-o",
        md,
    )
    assert not err or code != 2, err
    return code, stdout, json.loads(out.read_text()), xml, md


def replay_repeated(tmp_path: Path, recording: Path) -> tuple[int, str, str, dict]:  # type: ignore[type-arg]
    """`run --replay RECORDING --repeat 3` of the suite: exit code, stdout, stderr, report."""
    out = tmp_path / "replayed.json"
    code, stdout, err = invoke(
        "run", tmp_path / "agent.yaml", "-q", "--agent", "flaky:factory", "--replay",
        recording, "--repeat", "3", "-o", out,
    )  # fmt: skip
    return code, stdout, err, json.loads(out.read_text())


def test_repeat_reports_pass_hat_k_pass_at_k_turn_rates_and_spread(tmp_path: Path) -> None:
    code, stdout, report, _, md = repeated(tmp_path)
    assert code == 1
    assert stdout.splitlines()[1] == (
        "repeat 3: 3 of 5 test case(s) passed every attempt, 4 at least once; 1 flaky: case 2"
    )
    assert report["summary"]["passed"] == 3  # pass rule `all`: case 2 and case 4 fail
    assert report["environment"]["repeat"] == "3"
    assert [r["passed"] for r in report["results"]] == [True, True, False, True, False]
    flaky = report["repeats"][2]
    assert [len(r["results"]) for r in report["repeats"]] == [3] * 5
    assert {k: v for k, v in flaky.items() if k not in ("results", "metric_scores")} == {
        "test_name": "case 2",
        "attempts": 3,
        "passed_attempts": 2,
        "passed": False,
        "flaky": True,
        "pass_hat_k": {"1": 0.6667, "2": 0.3333, "3": 0.0},
        "pass_at_k": {"1": 0.6667, "2": 1.0, "3": 1.0},
        "turn_pass_rates": [1.0, 0.6667, 1.0],
    }
    spread = flaky["metric_scores"]["equality"]
    assert (round(spread["min"], 4), spread["max"]) == (0.6667, 1.0)
    assert [r["results"][1]["passed"] for r in report["repeats"]] == [
        True,
        True,
        False,
        True,
        False,
    ]
    assert "| FAIL (FLAKY: 2/3 attempts passed) |" in md.read_text()
    row = "| `case 2` FLAKY | 2/3 | 0 | 1 | 100%, 67%, 100% | `equality 0.67-1.00` |"
    assert row in md.read_text()


def test_the_pass_rule_decides_the_verdict_and_junit_marks_the_flaky_case(tmp_path: Path) -> None:
    code, _, report, xml, _ = repeated(tmp_path, "--pass-rule", "any")
    assert code == 1  # case 4 never passed
    assert [r["passed"] for r in report["results"]] == [True, True, True, True, False]
    suites = {s.name: s for s in JUnitXml.fromfile(str(xml))}
    assert set(suites) == set(CASES)
    props = {p.name: p.value for p in suites["case 2"].properties()}
    assert props == {
        "flaky": "true",
        "attempts": "3",
        "passed_attempts": "2",
        "pass^3": "0.0",
        "pass@3": "1.0",
    }
    text = xml.read_text()
    assert text.count("<flakyFailure") == 1
    assert '<flakyFailure message="failed in 1 of 3 attempts" type="flaky"' in text
    code, _, report, _, _ = repeated(tmp_path, "--pass-rule", "0.6")
    assert [r["passed"] for r in report["results"]] == [True, True, True, True, False]
    bad = invoke("run", tmp_path / "agent.yaml", "--repeat", "2", "--pass-rule", "most")
    assert bad == (2, "", "error: --pass-rule is all, any or a fraction in (0, 1], got 'most'\n")


def test_a_recorded_repeat_replays_attempt_for_attempt(tmp_path: Path) -> None:
    recording = tmp_path / "recording.jsonl"
    _, _, live, _, _ = repeated(tmp_path, "--record", str(recording))
    code, stdout, _, replayed = replay_repeated(tmp_path, recording)
    assert code == 1
    assert stdout.splitlines()[1] == (
        "repeat 3: 3 of 5 test case(s) passed every attempt, 4 at least once; 1 flaky: case 2"
    )

    def attempts(report: dict) -> list[list[bool]]:  # type: ignore[type-arg]
        return [[a["passed"] for a in case["results"]] for case in report["repeats"]]

    # Case 2's second attempt answered wrongly when recorded: so it does in the replay (live
    # again, the agent, its session count carried over in this process, would not).
    assert attempts(replayed) == attempts(live)
    assert attempts(replayed)[2] == [True, False, True]


def test_every_line_and_report_names_test_cases_attempts_and_turns(tmp_path: Path) -> None:
    path = suite(tmp_path, "unused")
    write(tmp_path, {"flaky.py": FLAKY_AGENT})
    md = tmp_path / "report.md"
    code, stdout, err = invoke(
        "run", path, "--agent", "flaky:factory", "--repeat", "3", "-k", "case 2", "-o", md
    )
    assert code == 1
    progress = [line.split(" (")[0] for line in err.splitlines()]
    assert progress == [
        "running 1 test case(s), 3 attempt(s) each",
        "PASS  case 2 [attempt 1 of 3]",
        "FAIL  case 2 [attempt 2 of 3]",
        "PASS  case 2 [attempt 3 of 3]",
    ]
    assert err.splitlines()[0] == (
        "running 1 test case(s), 3 attempt(s) each (3 attempt(s), 9 turn(s))"
    )
    summary, repeat, kept = stdout.splitlines()
    assert summary.startswith("1 test case(s) run (3 attempt(s), 9 turn(s)): 0 passed, 1 failed")
    assert kept.startswith(f"run kept: {tmp_path / 'results'}")
    assert repeat == (
        "repeat 3: 0 of 1 test case(s) passed every attempt, 1 at least once; 1 flaky: case 2"
    )
    assert "**0/1 test cases passed** (0%; 3 attempt(s), 9 turn(s))" in md.read_text()


def test_a_repeated_run_that_stops_counts_test_cases_and_attempts_alike(tmp_path: Path) -> None:
    recording = tmp_path / "recording.jsonl"
    repeated(tmp_path, "--record", str(recording), "-k", "case 0", "-k", "case 1")
    code, stdout, err, report = replay_repeated(tmp_path, recording)
    assert code == 3
    # Case 2's first attempt was not recorded: the run stops there; cases 2-4 did not run.
    assert report["not_run"] == ["case 2", "case 3", "case 4"]
    assert [(r["test_name"], r["attempts"]) for r in report["repeats"]] == [
        ("case 0", 3),
        ("case 1", 3),
    ]
    assert stdout.splitlines()[0].startswith(
        "interrupted: 2 of 5 test case(s) run (6 attempt(s), 18 turn(s)): 2 passed, 0 failed "
        "(100%), 3 not run in "
    )
    assert err.splitlines()[-1].endswith(
        "; 2 of 5 test case(s) kept, 3 did not run (6 of 15 attempt(s) finished)"
    )
