"""Runs from the editor through the protocol: code lenses above cases and turns, "Run
turn" through `workspace/executeCommand` (replaying the example's recording, `replay.jsonl`
beside it), the run's diagnostics published beside the validation's, hover with the last
result, a CI report shown the same way."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

from lsprotocol import types

from tests.conftest import REPO
from tests.runner.helpers import invoke
from tests.server.lsp_client import Client, open_doc
from tests.server.shared_servers import SHARES_SERVERS, LendPush

pytestmark = SHARES_SERVERS
TRUSTED = {"workspaceTrusted": True}  # runs are offered in trusted workspaces only

E = types.DiagnosticSeverity.Error
NUMERIC_RULE = "not the ground truth within tolerance"  # why numeric failed, without a threshold


def broken_example(tmp_path: Path) -> tuple[Path, list[str]]:
    folder = tmp_path / "convfinqa"
    shutil.copytree(REPO / "examples" / "convfinqa", folder)
    agent = folder / "agent.yaml"
    text = agent.read_text()
    text = text.replace('ground_truth: "181001"', 'ground_truth: "190000"', 1)
    text = text.replace('year: {regex: "2020"}', 'year: {regex: "2021"}', 1)
    agent.write_text(text)
    return agent, text.splitlines()


def run_diagnostics(client: Client, doc: str) -> list[tuple[int, object, str]]:
    return sorted(
        (d.range.start.line, d.severity, d.message.split("\n")[0])
        for d in client.diagnostics.get(doc, [])
        if d.source == "holodeck-lsp run"
    )


async def test_run_turn_from_its_lens_publishes_the_failures_at_their_lines(
    tmp_path: Path, lend_push: LendPush
) -> None:
    agent, lines = broken_example(tmp_path)
    # No `run.replay`: the lens replays the suite's recording, `replay.jsonl` beside it.
    async with lend_push(agent.parent, TRUSTED) as client:
        earlier = set(client.progress_reports)  # the session's server: other tests' runs
        doc = open_doc(client, agent)
        await client.diagnostics_of(doc)
        lenses = await client.text_document_code_lens_async(
            types.CodeLensParams(types.TextDocumentIdentifier(doc))
        )
        assert lenses is not None
        first = lines.index("test_cases:")
        cases = [i for i, line in enumerate(lines) if i > first and line.startswith("  - name: ")]
        turns = [i for i, line in enumerate(lines) if line.startswith("      - input: ")]
        assert [
            (lens.range.start.line, lens.command.title) for lens in lenses if lens.command
        ] == sorted(
            [(line, "▶ Run case") for line in cases] + [(line, "▶ Run turn") for line in turns]
        )
        (chosen,) = [
            lens.command
            for lens in lenses
            if lens.command and list(lens.command.arguments or []) == [doc, 0, 1]
        ]
        assert chosen.command == "holodeck.runTurn"
        answer = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(chosen.command, chosen.arguments)
        )
        assert answer == {"exitCode": 1, "passed": 0, "failed": 1}
        found = await client.until(lambda: run_diagnostics(client, doc))
        arg = next(i for i, line in enumerate(lines) if 'year: {regex: "2021"}' in line)
        truth = lines.index('        ground_truth: "190000"')
        # Each failure where the run's events place it: the failed argument (its expected
        # tool says nothing more), the failed comparison at the ground truth.
        assert found == [
            (truth, E, f"metric numeric failed: score 0: {NUMERIC_RULE} (last run)"),
            (arg, E, "expected regex '2021', got '2020' (last run)"),
        ]  # fmt: skip
        (numeric,) = [d for d in client.diagnostics[doc] if d.range.start.line == truth]
        assert numeric.message.split("\n")[1:] == ["expected: 190000", "actual: 181,001"]
        # `$/progress`: begun, each finished turn, ended with the counts.
        (reports,) = [r for t, r in client.progress_reports.items() if t not in earlier]
        assert [type(r).__name__ for r in reports] == [
            "WorkDoneProgressBegin",
            "WorkDoneProgressReport",
            "WorkDoneProgressReport",
            "WorkDoneProgressEnd",
        ]
        assert [getattr(r, "message", None) for r in reports[1:]] == [
            "test_cases[0].turns[0]: passed",
            "test_cases[0].turns[1]: failed",
            "0 passed, 1 failed",
        ]
        hover = await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(doc), types.Position(turns[1], 10))
        )
        assert hover is not None and isinstance(hover.contents, types.MarkupContent)
        assert "**Last run: FAIL** turn 1" in hover.contents.value
        assert (
            "tool calls: `lookup(metric='operating_cash_flow', year='2020')`"
            in hover.contents.value
        )


async def test_a_report_from_ci_is_shown_at_its_lines(tmp_path: Path, lend_push: LendPush) -> None:
    agent, lines = broken_example(tmp_path)
    report = agent.parent / "report.json"
    code, _, err = await asyncio.to_thread(
        invoke,
        "run", agent, "--replay", agent.parent / "replay.jsonl", "--no-user-config", "-q",
        "-o", report,
    )  # fmt: skip
    assert code == 1, err
    # CI's model timed out on the second case's last turn: no reply, nothing judged.
    data = json.loads(report.read_text())
    lost = data["results"][1]["turns"][-1]
    lost.update(response=None, passed=False, errors=["timeout"], metric_results=[])
    data["results"][1].update(passed=False, errors=["[turn 2] timeout"])
    data["summary"].update(passed=1, failed=2)
    report.write_text(json.dumps(data))
    async with lend_push(agent.parent, TRUSTED) as client:
        doc = open_doc(client, agent)
        await client.diagnostics_of(doc)
        answer = await client.workspace_execute_command_async(
            types.ExecuteCommandParams("holodeck.showReport", [doc, "report.json"])
        )
        assert answer == {"exitCode": 1, "passed": 1, "failed": 2}
        found = await client.until(lambda: run_diagnostics(client, doc))
        truth = lines.index('        ground_truth: "190000"')
        arg = next(i for i, line in enumerate(lines) if 'year: {regex: "2021"}' in line)
        turns = [i for i, line in enumerate(lines) if line.startswith("      - input: ")]
        assert found == [
            (truth, E, f"metric numeric failed: score 0: {NUMERIC_RULE} (last run)"),
            (arg, E, "expected regex '2021', got '2020' (last run)"),
            (turns[6], E, "timeout (last run)"),
        ]


async def test_a_turn_that_passed_in_the_baseline_is_marked_regressed(
    tmp_path: Path, lend_push: LendPush
) -> None:
    """`run.baseline` names main's report (the example before the change): "Run turn" marks
    the turn that passed there and fails now, in its diagnostics and its hover."""
    example = tmp_path / "main"
    shutil.copytree(REPO / "examples" / "convfinqa", example)
    code, _, err = await asyncio.to_thread(
        invoke,
        "run", example / "agent.yaml", "--replay", example / "replay.jsonl", "--no-user-config",
        "-q", "-o", tmp_path / "main.json",
    )  # fmt: skip
    assert code == 0, err
    agent, lines = broken_example(tmp_path)
    # In the workspace folder (CI's report, downloaded): a run reads no file outside it.
    shutil.move(tmp_path / "main.json", agent.parent / "ci-main.json")
    settings = {"replay": "replay.jsonl", "baseline": str(agent.parent / "ci-main.json")}
    async with lend_push(agent.parent, {**TRUSTED, "run": settings}) as client:
        doc = open_doc(client, agent)
        await client.diagnostics_of(doc)
        answer = await client.workspace_execute_command_async(
            types.ExecuteCommandParams("holodeck.runTurn", [doc, 0, 1])
        )
        assert answer == {"exitCode": 1, "passed": 0, "failed": 1}
        found = await client.until(lambda: run_diagnostics(client, doc))
        turns = [i for i, line in enumerate(lines) if line.startswith("      - input: ")]
        # The run lists the regression first, at the turn's input, then the turn's failures.
        assert found[0] == (
            turns[1],
            E,
            "Regressed: it passed in the baseline (passed -> failed) (last run)",
        )
        assert len(found) == 3
        hover = await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(doc), types.Position(turns[1], 10))
        )
        assert hover is not None and isinstance(hover.contents, types.MarkupContent)
        assert "**Last run: REGRESSED** turn 1" in hover.contents.value
        assert "since the baseline: `passed -> failed`" in hover.contents.value
        first = await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(doc), types.Position(turns[0], 10))
        )
        assert first is not None and isinstance(first.contents, types.MarkupContent)
        assert "**Last run: PASS** turn 0" in first.contents.value
        assert "since the baseline: `passed -> passed`" in first.contents.value
