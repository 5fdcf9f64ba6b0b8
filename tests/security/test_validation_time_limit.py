"""A validation that runs past the server's time limit starves nothing (issue 29, item 2):
it is abandoned, its worker process is killed with what it started and replaced, its
document gets one HL801 and nothing else, and the documents opened after it get their
diagnostics meanwhile. Two ways past the limit, each slow whatever the machine: an
agent whose grader takes ten minutes to import (the validation waits on that child),
and a document of two million characters packed with test cases (the validation
computes). An edit of the abandoned document validates it again."""

from __future__ import annotations

import shutil
from pathlib import Path

from lsprotocol import types

from tests.conftest import FIXTURES
from tests.security.processes import process_naming, wait_for
from tests.server.lsp_client import diag, open_doc, push_capabilities, replace_all, start, stop
from tests.support.suites import crowded_suite, small_agent

TRUSTED = {"workspaceTrusted": True, "graders": {"import": "trusted"}}
SLOW_GRADER = FIXTURES / "server" / "validation_time_limit"
EDITOR_LIMIT = 1_990_000  # characters: under the size the editor validates (2,000,000)


def overran(limit: float, first_line: str) -> types.Diagnostic:
    return diag((0, 0), (0, len(first_line)), "HL801",
                f"validating this file took longer than {limit:g} s, the server's limit "
                "(validation.timeLimit), so it was stopped and nothing of it is checked; it "
                "is validated again when it changes", types.DiagnosticSeverity.Warning)


async def test_a_validation_past_the_limit_is_one_diagnostic_and_holds_up_no_other(
    tmp_path: Path,
) -> None:
    workspace = tmp_path / "ws"
    shutil.copytree(SLOW_GRADER, workspace)
    good_path = workspace / "good.agent.yaml"
    good_path.write_text(small_agent("good") + "    bogus: 1\n")
    client = await start(workspace, push_capabilities(),
                         options={**TRUSTED, "validation": {"timeLimit": 2}})
    try:
        good = open_doc(client, good_path)
        unknown = diag((8, 4), (8, 9), "HL101", "unknown key 'bogus' (test_cases[0].bogus)")
        assert await client.diagnostics_of(good, 1) == [unknown]  # the server is up
        hostile = open_doc(client, workspace / "agent.yaml")
        # Opened or edited after it, validated while it still waits on its grader's import.
        other = open_doc(client, workspace / "other.agent.yaml", small_agent("other"))
        replace_all(client, good, small_agent("good"), 2)
        assert await client.diagnostics_of(other, 1) == []
        assert await client.diagnostics_of(good, 2) == []
        assert [p for p in client.published if p.uri == hostile] == []
        importing = wait_for(lambda: process_naming(str(workspace)))  # the grader's import
        assert await client.diagnostics_of(hostile, 1) == [overran(2, "name: slow-grader")]
        wait_for(lambda: True if process_naming(str(workspace)) is None else None)
        assert process_naming(str(importing)) is None
        # Fixed (the grader's line gone): validated again, in a new worker process.
        text = (workspace / "agent.yaml").read_text().replace("graders:grade", "graders")
        replace_all(client, hostile, text, 2)
        assert [d.code for d in await client.diagnostics_of(hostile, 2)] == ["HL501"]
    finally:
        await stop(client)


async def test_a_document_too_large_to_validate_in_time_is_one_diagnostic(
    tmp_path: Path,
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    client = await start(workspace, push_capabilities(), options={"validation": {"timeLimit": 0.5}})
    try:
        text = crowded_suite(EDITOR_LIMIT)  # about 110,000 test cases
        doc = open_doc(client, workspace / "crowded.agent.yaml", text)
        assert await client.diagnostics_of(doc, 1) == [overran(0.5, "name: benchmark-suite")]
    finally:
        await stop(client)
