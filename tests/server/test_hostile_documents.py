"""Pathological documents in the editor: each one is a diagnostic, and the server keeps
answering (an alias bomb, 500 nested lists, a lone surrogate, a file past the size the
editor validates)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from holodeck_lsp.server.jobs import MAX_TEXT
from tests.server.lsp_client import Client, diag, open_doc
from tests.server.shared_servers import SHARES_SERVERS
from tests.support.suites import alias_bomb, small_agent

pytestmark = SHARES_SERVERS

AGENT = small_agent("hostile")


async def codes(push: Client, doc: str) -> list[tuple[str, int, int]]:
    found = await push.diagnostics_of(doc, version=1)
    return [(str(d.code), d.range.start.line, d.range.start.character) for d in found]


async def test_each_pathological_document_is_a_diagnostic(push: Client, workspace: Path) -> None:
    bomb = open_doc(push, workspace / "bomb.agent.yaml", AGENT + alias_bomb(9))
    nested = open_doc(push, workspace / "nested.agent.yaml",
                      AGENT + "    retrieval_context: " + "[" * 500 + "]" * 500 + "\n")
    surrogate = open_doc(push, workspace / "odd.agent.yaml",
                         AGENT.replace("hello", "hel\ud800lo") + "    bogus: 1\n")
    assert ("HL007", 12, 4) in await codes(push, bomb)
    assert [c for c in await codes(push, nested) if c[0] == "HL007"] == [("HL007", 8, 84)]
    assert await codes(push, surrogate) == [("HL005", 7, 14), ("HL101", 8, 4)]


@pytest.mark.slow
async def test_a_file_past_the_editors_size_limit_is_one_diagnostic(
    push: Client, workspace: Path
) -> None:
    text = AGENT + "# " + "x" * MAX_TEXT + "\n"
    doc = open_doc(push, workspace / "huge.agent.yaml", text)
    assert await push.diagnostics_of(doc, version=1) == [diag(
        (0, 0), (0, 13), "HL007",
        f"the file has {len(text):,} characters; files over {MAX_TEXT:,} are not validated "
        "(document size limit)")]
    ident = types.TextDocumentIdentifier(doc)
    assert await push.text_document_hover_async(
        types.HoverParams(ident, types.Position(1, 3))) is None
    assert await push.text_document_document_symbol_async(
        types.DocumentSymbolParams(ident)) == []
