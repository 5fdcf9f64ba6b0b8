"""Hover, document symbols and go-to-definition through the protocol."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from tests.server.lsp_client import Client, edit, open_doc, uri
from tests.server.shared_servers import SHARES_SERVERS

pytestmark = SHARES_SERVERS


def hover_at(doc: str, line: int, character: int) -> types.HoverParams:
    return types.HoverParams(types.TextDocumentIdentifier(doc), types.Position(line, character))


async def test_hover_shows_the_field_description_type_default_and_values(
    push: Client, workspace: Path
) -> None:
    doc = open_doc(push, workspace / "cases.yaml")
    hover = await push.text_document_hover_async(hover_at(doc, 6, 14))
    assert hover == types.Hover(
        contents=types.MarkupContent(
            types.MarkupKind.Markdown,
            "**args** (mapping of any to any, optional)\n\nArguments one single call must "
            "carry. Each value is a literal (numbers compare numerically), `{fuzzy: ...}` "
            "(case, surrounding and repeated whitespace and thousands separators ignored; "
            "numbers compare numerically) or `{regex: ...}` (a regular expression the whole "
            "value must match). Unasserted arguments are ignored.",
        ),
        range=types.Range(types.Position(6, 12), types.Position(6, 16)),
    )
    hover = await push.text_document_hover_async(hover_at(doc, 12, 20))
    assert hover == types.Hover(
        contents=types.MarkupContent(
            types.MarkupKind.Markdown,
            "**type** (text, required)\n\nKind of file: `image`, `pdf`, `text`, `excel`, "
            "`word`, `powerpoint`, `csv`.\n\nAllowed values: `image`, `pdf`, `text`, `excel`, "
            "`word`, `powerpoint`, `csv`",
        ),
        range=types.Range(types.Position(12, 18), types.Position(12, 22)),
    )


async def test_hover_reads_fields_of_a_document_that_does_not_parse(
    push: Client, workspace: Path
) -> None:
    text = (
        "test_cases:\n  - turns:\n      - input: hi\n        expected_tools:\n"
        "          - name: x\n            count: 2\n      - inp\n"
    )
    doc = open_doc(push, workspace / "cases.yaml", text)
    hover = await push.text_document_hover_async(hover_at(doc, 5, 14))
    assert hover == types.Hover(
        contents=types.MarkupContent(
            types.MarkupKind.Markdown,
            "**count** (integer, default `1`)\n\nMinimum number of matching calls in this turn.",
        ),
        range=types.Range(types.Position(5, 12), types.Position(5, 17)),
    )


def symbol(
    name: str,
    kind: types.SymbolKind,
    rng: tuple[int, int, int, int],
    sel: tuple[int, int, int, int],
    detail: str | None = None,
    children: list[types.DocumentSymbol] | None = None,
) -> types.DocumentSymbol:
    return types.DocumentSymbol(
        name=name,
        kind=kind,
        detail=detail,
        range=types.Range(types.Position(*rng[:2]), types.Position(*rng[2:])),
        selection_range=types.Range(types.Position(*sel[:2]), types.Position(*sel[2:])),
        children=tuple(children) if children else None,
    )


async def test_symbols_list_test_cases_with_their_turns(push: Client, workspace: Path) -> None:
    doc = open_doc(push, workspace / "cases.yaml")
    found = await push.text_document_document_symbol_async(
        types.DocumentSymbolParams(types.TextDocumentIdentifier(doc))
    )
    case, turn = types.SymbolKind.Class, types.SymbolKind.Method
    assert found == [
        symbol(
            "test_cases",
            types.SymbolKind.Module,
            (0, 0, 15, 21),
            (0, 0, 0, 10),
            "2 test cases",
            [
                symbol(
                    "refund",
                    case,
                    (1, 2, 12, 22),
                    (1, 10, 1, 16),
                    "2 turns",
                    [
                        symbol(
                            "turns[0]",
                            turn,
                            (3, 6, 8, 39),
                            (3, 6, 8, 39),
                            "I want a refund for order 42",
                        ),
                        symbol("turns[1]", turn, (9, 6, 12, 22), (9, 6, 12, 22), "Thanks"),
                    ],
                ),
                symbol("greeting", case, (13, 2, 15, 21), (13, 10, 13, 18), "Hello"),
            ],
        )
    ]


async def test_symbols_survive_a_line_that_does_not_parse(push: Client, workspace: Path) -> None:
    doc = open_doc(push, workspace / "cases.yaml")
    params = types.DocumentSymbolParams(types.TextDocumentIdentifier(doc))
    before = await push.text_document_document_symbol_async(params)
    edit(push, doc, 2, (13, 0), (13, 0), "  - name: [unclosed\n")
    assert await push.text_document_document_symbol_async(params) == before


async def definition(client: Client, doc: str, line: int, character: int) -> object:
    return await client.text_document_definition_async(
        types.DefinitionParams(types.TextDocumentIdentifier(doc), types.Position(line, character))
    )


async def test_definition_of_a_grader_is_its_python_function(push: Client, workspace: Path) -> None:
    doc = open_doc(push, workspace / "agent.yaml")
    assert await definition(push, doc, 16, 20) == types.Location(
        uri(workspace / "graders.py"), types.Range(types.Position(5, 0), types.Position(5, 0))
    )


async def test_definition_of_file_references_is_the_file(push: Client, workspace: Path) -> None:
    agent = open_doc(push, workspace / "agent.yaml")
    start = types.Range(types.Position(0, 0), types.Position(0, 0))
    assert await definition(push, agent, 17, 20) == types.Location(
        uri(workspace / "cases.yaml"), start
    )
    cases = open_doc(push, workspace / "cases.yaml")
    assert await definition(push, cases, 11, 22) == types.Location(
        uri(workspace / "data" / "receipt.txt"), start
    )
    assert await definition(push, cases, 12, 20) is None  # `type: text` names no file
