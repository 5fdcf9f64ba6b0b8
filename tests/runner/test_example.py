"""The bundled ConvFinQA-style example: clean under `check`, and runs offline from its
committed recording with no API key."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.runner.helpers import invoke

EXAMPLE = REPO / "examples" / "convfinqa"


def test_the_example_checks_clean() -> None:
    code, out, _ = invoke("check", "--no-user-config", EXAMPLE / "agent.yaml")
    assert (code, out) == (0, "1 file(s) checked: 0 error(s), 0 warning(s)\n")


def test_the_example_replays_offline_and_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    report = tmp_path / "report.json"
    code, out, err = invoke(
        "run",
        EXAMPLE / "agent.yaml",
        "--replay",
        EXAMPLE / "replay.jsonl",
        "-o",
        report,
        "--no-user-config",
        "--history-dir",
        tmp_path / "history",
    )
    assert code == 0, err
    summary, judged, kept = out.splitlines()
    assert summary.startswith("3 test case(s) run (10 turn(s)): 3 passed, 0 failed (100%)")
    # The geval metric's judge answered from the recording too.
    assert judged == "judge: 10 call(s), 2,754 token(s) (2,414 prompt, 340 completion)"
    (run,) = (tmp_path / "history").iterdir()
    assert kept == f"run kept: {run}"
    data = json.loads(report.read_text())
    assert [len(r["turns"]) for r in data["results"]] == [4, 3, 3]
    assert data["summary"]["average_scores"] == pytest.approx(
        {"numeric": 1.0, "grounded_in_tools": 1.0, "answer format": (1.0 + 1.0 + 14 / 15) / 3}
    )
    results = data["results"][2]["turns"][0]["metric_results"]
    (graded,) = [m for m in results if m["kind"] == "geval"]
    assert {k: graded[k] for k in ("metric_name", "kind", "score", "passed", "model_used")} == {
        "metric_name": "answer format",
        "kind": "geval",
        "score": 0.8,
        "passed": True,
        "model_used": "gpt-4o",
    }
    details = data["results"][2]["turns"][0]["arg_match_details"]
    assert details == [
        {
            "expected_tool": "lookup",
            "args_asserted": {"metric": "net_income", "year": {"regex": "202[01]"}},
            "matched_call_index": 0,
            "unmatched_reason": None,
        }
    ]


def _example_with_key(tmp_path: Path, extra: str = "") -> Path:
    """The example, copied, with its key written as most agents write it."""
    folder = tmp_path / "convfinqa"
    shutil.copytree(EXAMPLE, folder)
    agent = folder / "agent.yaml"
    text = agent.read_text().replace(
        "  temperature: 0.0\n", "  temperature: 0.0\n  api_key: ${OPENAI_API_KEY}\n" + extra, 1
    )
    agent.write_text(text)
    return agent


def test_a_replay_needs_no_key_the_agent_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    agent = _example_with_key(tmp_path)
    code, out, err = invoke(
        "run", agent, "--replay", agent.parent / "replay.jsonl", "--no-user-config", "--quiet"
    )
    assert (code, err) == (0, "")
    assert out.startswith("3 test case(s) run (10 turn(s)): 3 passed, 0 failed (100%)")


def test_without_replay_the_unset_key_stops_the_run_shown_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    agent = _example_with_key(tmp_path)
    code, out, err = invoke("run", agent, "--no-user-config")
    assert (code, out) == (2, "")
    assert err == (
        f"{agent}:12:12: error HL605 environment variable OPENAI_API_KEY is not set\n"
        "    api_key: ${OPENAI_API_KEY}\n"
        f"             {'^' * len('${OPENAI_API_KEY}')}\n"
        "1 file(s) checked: 1 error(s), 0 warning(s)\n"
    )


def test_a_replay_still_needs_variables_outside_secret_fields(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("OPENAI_API_KEY", "HL_TEST_API_VERSION"):
        monkeypatch.delenv(name, raising=False)
    # A setting (not a secret) may change what the agent does: it must be set.
    agent = _example_with_key(tmp_path, "  api_version: ${HL_TEST_API_VERSION}\n")
    code, out, err = invoke(
        "run", agent, "--replay", agent.parent / "replay.jsonl", "--no-user-config"
    )
    assert (code, out) == (2, "")
    assert err.splitlines()[0] == (
        f"{agent}:13:16: error HL605 environment variable HL_TEST_API_VERSION is not set"
    )
