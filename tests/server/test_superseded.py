"""Work for text the editor has already replaced is dropped, and its requests answered."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types

from tests.server.lsp_client import Client, diag, open_doc, replace_all
from tests.server.shared_servers import SHARES_SERVERS
from tests.server.wire import Wire
from tests.support.suites import small_agent, suite

pytestmark = SHARES_SERVERS

SMALL = small_agent("small") + "    bogus: 1\n"


@pytest.mark.slow
async def test_a_pull_for_a_version_the_client_moved_back_from_is_answered(
    pull: Client, workspace: Path
) -> None:
    agent = open_doc(pull, workspace / "big.agent.yaml", suite(1000), version=20)
    report = asyncio.ensure_future(pull.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(types.TextDocumentIdentifier(agent))))
    replace_all(pull, agent, SMALL, 15)  # a client that numbers versions oddly
    answer = await asyncio.wait_for(report, 30)  # was: the 60 s fallback of the wait
    assert isinstance(answer, types.RelatedFullDocumentDiagnosticReport)
    assert answer.items == (diag((8, 4), (8, 9),
                                 "HL101", "unknown key 'bogus' (test_cases[0].bogus)"),)


@pytest.mark.slow
async def test_queued_queries_of_replaced_text_are_dropped_with_content_modified(
    tmp_path: Path,
) -> None:
    wire = await Wire.start(tmp_path / "home")
    await wire.initialize(tmp_path)
    big = (tmp_path / "big.agent.yaml").as_uri()
    small = (tmp_path / "small.agent.yaml").as_uri()
    for uri, text in ((big, suite(2000)), (small, SMALL)):  # under the 2 MB limit
        wire.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": text}})
    asked = [wire.request("textDocument/documentSymbol", {"textDocument": {"uri": big}})
             for _ in range(8)]
    wire.notify("textDocument/didChange", {
        "textDocument": {"uri": big, "version": 2},
        "contentChanges": [{"text": SMALL}]})
    hover = await wire.call("textDocument/hover", {
        "textDocument": {"uri": small}, "position": {"line": 1, "character": 3}})
    assert "model" in hover["result"]["contents"]["value"]
    answers = [await wire.response(i) for i in asked]
    modified = [a for a in answers if a.get("error", {}).get("code") == -32801]
    assert len(modified) >= 7  # all but the one the worker had already started
    assert all("result" in a for a in answers if a not in modified)
    assert await wire.close() == 0
