"""Reading a results folder: the runs `holodeck test` keeps (and ours) in time order, each
with its metadata and the outcome of every turn of every attempt; what is not a run is left
out with one sentence, never a crash."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from holodeck_lsp.history.eval_run_reading import EvalRunError, read_eval_run
from holodeck_lsp.history.run_history import agent_results_folder, read_history
from holodeck_lsp.history.run_records import HistoryRun
from tests.history.conftest import VENDORED_HISTORY

RUNS = VENDORED_HISTORY / "results" / "cash-flow"  # read only: copied where a test indexes


def _outline(run: HistoryRun) -> tuple[Any, ...]:
    cases = [(c.label, c.index, c.attempts, c.verdicts, c.passed) for c in run.cases]
    return (run.prompt_version, run.model, run.made_by, run.passed_cases, cases)


def test_the_runs_holodeck_kept_are_read_in_time_order_with_every_turn(
    holodeck_history: Path,
) -> None:
    folder = agent_results_folder(holodeck_history)
    assert folder == Path("history/results/cash-flow")
    history = read_history(folder)
    assert history.refused == []
    assert [run.path.name for run in history.runs] == sorted(p.name for p in RUNS.iterdir())
    holodeck = "HoloDeck 0.7.1"
    assert [_outline(run) for run in history.runs] == [
        ("v1", "gpt-4o-mini", holodeck, 2, [("cash change", 0, ("pp",), "p", True),
                                            ("capital", 1, ("p",), "p", True)]),
        ("v2", "gpt-4o-mini", holodeck, 1, [("cash change", 0, ("pf",), "f", False),
                                            ("capital", 1, ("p",), "p", True)]),
        ("v2", "gpt-4o-mini", holodeck, 2, [("cash change", 0, ("pp",), "p", True),
                                            ("capital", 1, ("p",), "p", True)]),
        ("v2", "gpt-4o-mini", holodeck, 0, [("cash change", 0, ("pf",), "f", False),
                                            ("capital", 1, ("f",), "f", False)]),
    ]
    first = history.runs[0]
    assert first.timestamp == "2026-12-07T03:03:07.811120+00:00"
    assert first.prompt_hash == "fdaf6d6a60af85ba5c29cef2ad2415b49892473eacfeb350ab81d0372889f0ce"
    assert first.git_commit is None and first.interrupted is False
    assert first.tokens is not None and first.tokens > 0
    assert [(t.case_name, t.turn_index, t.attempt, t.passed) for t in history.runs[1].turns()] == [
        ("cash change", 0, 0, True),
        ("cash change", 1, 0, False),
        ("capital", 0, 0, True),
    ]


def _repeated(run: dict[str, Any]) -> dict[str, Any]:
    """A run kept as `run --repeat 2` keeps it: every attempt a result, each naming its
    case's place in the suite; the summary counts attempts."""
    report = run["report"]
    cash, capital = report["results"]
    failing = json.loads(json.dumps(cash))
    failing["passed"] = False
    failing["turns"][0]["passed"] = False
    report["results"] = [cash, failing, capital, capital]
    report["environment"].update(case_indexes="0,0,1,1", repeat="2", pass_rule="all")
    report["summary"].update(total_tests=4, passed=3, failed=1)
    return run


def test_every_attempt_of_a_repeated_run_is_read_and_the_run_s_pass_rule_gives_verdicts(
    tmp_path: Path,
) -> None:
    source = sorted(RUNS.iterdir())[0].read_text()
    (tmp_path / "all.json").write_text(json.dumps(_repeated(json.loads(source))))
    lenient = _repeated(json.loads(source))
    lenient["report"]["environment"]["pass_rule"] = "any"
    lenient["report"]["timestamp"] = "2026-12-08T00:00:00+00:00"
    (tmp_path / "any.json").write_text(json.dumps(lenient))
    strict, any_rule = read_history(tmp_path).runs
    assert [(c.label, c.attempts, c.verdicts, c.passed) for c in strict.cases] == [
        ("cash change", ("pp", "fp"), "pf", False),
        ("capital", ("p", "p"), "pp", True),
    ]
    assert (strict.repeat, strict.attempts, strict.passed_attempts) == (2, 4, 3)
    assert strict.cases[0].turn_passed(0, strict.pass_share) is False
    assert strict.cases[0].turn_passed(1, strict.pass_share) is True
    assert [c.passed for c in any_rule.cases] == [True, True]
    assert [(t.case_index, t.turn_index, t.attempt, t.passed) for t in strict.turns()][:4] == [
        (0, 0, 0, True),
        (0, 1, 0, True),
        (0, 0, 1, False),
        (0, 1, 1, True),
    ]


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_files_that_are_not_runs_are_left_out_with_one_sentence_each(tmp_path: Path) -> None:
    shutil.copy(sorted(RUNS.iterdir())[0], tmp_path / "good.json")
    report_only = json.loads((tmp_path / "good.json").read_text())["report"]
    (tmp_path / "a-report.json").write_text(json.dumps(report_only))
    (tmp_path / "broken.json").write_text("{not json")
    good = (tmp_path / "good.json").read_text()
    deep = good.replace('"tools": [', f'"x": {_nested(100_000)}, "tools": [', 1)
    (tmp_path / "deep.json").write_text(deep)
    (tmp_path / "folder.json").mkdir()
    os.mkfifo(tmp_path / "fifo.json")
    (tmp_path / "notes.txt").write_text("not a run file: never read")
    history = read_history(tmp_path)
    assert [run.path.name for run in history.runs] == ["good.json"]
    assert history.refused == [
        f"{tmp_path / 'a-report.json'} is not a kept run (EvalRun): report: Field required",
        f"{tmp_path / 'broken.json'} is not a kept run (EvalRun): the document: Invalid JSON: "
        "key must be a string at line 1 column 2",
        f"{tmp_path / 'deep.json'} is not a kept run (EvalRun): the document: Invalid JSON: "
        "recursion limit exceeded at line 294 column 210",
        f"cannot read {tmp_path / 'fifo.json'}: it is a FIFO (named pipe), not a regular file",
    ]


def test_a_run_nested_as_deeply_as_the_parser_allows_is_read_and_deeper_is_refused(
    tmp_path: Path,
) -> None:
    good = sorted(RUNS.iterdir())[0].read_text()
    for depth, readable in ((150, True), (100_000, False)):
        path = tmp_path / f"{depth}.json"
        nested = good.replace('"author": null,', f'"deep": {_nested(depth)}, "author": null,', 1)
        path.write_text(nested)
        if readable:
            assert read_eval_run(path).metadata.agent_config["deep"] is not None
        else:
            with pytest.raises(EvalRunError, match="recursion limit exceeded"):
                read_eval_run(path)


def test_a_run_of_another_agent_than_its_report_names_is_refused(tmp_path: Path) -> None:
    run = json.loads(sorted(RUNS.iterdir())[0].read_text())
    run["metadata"]["agent_config"]["name"] = "someone-else"
    (tmp_path / "run.json").write_text(json.dumps(run))
    assert read_history(tmp_path).refused == [
        f"{tmp_path / 'run.json'} is not a kept run (EvalRun): the document: Value error, "
        "report.agent_name ('cash-flow') must equal metadata.agent_config.name ('someone-else')"
    ]


def test_a_folder_that_does_not_exist_is_an_empty_history(tmp_path: Path) -> None:
    history = read_history(tmp_path / "results" / "nobody")
    assert (history.runs, history.refused) == ([], [])
