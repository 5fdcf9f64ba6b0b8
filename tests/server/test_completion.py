"""Completion through the protocol, on documents that do not parse yet."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from tests.server.lsp_client import Client, open_doc
from tests.server.shared_servers import SHARES_SERVERS

pytestmark = SHARES_SERVERS

# Trailing spaces matter here: the cursor stands after them.
HALF_TYPED = (
    "\n".join(
        [
            "name: bot",
            "model:",
            "  provider: ",
            "  name: gpt-4o",
            "instructions:",
            "  inline: Be brief.",
            "evaluations:",
            "  metrics:",
            "    - type: ",
            "test_cases:",
            "  - name: refund",
            "    turns:",
            "      - input: I want a refund",
            "        gro",
            "        expected_tools:",
            "          - name: lookup_order",
            "            args:",
            "              reason: ",
            "      - ",
            "",
        ]
    )
    + "\n"
)


async def complete(client: Client, doc_uri: str, line: int, character: int) -> types.CompletionList:
    found = await client.text_document_completion_async(
        types.CompletionParams(
            types.TextDocumentIdentifier(doc_uri), types.Position(line, character)
        )
    )
    assert isinstance(found, types.CompletionList)
    return found


def new_text(item: types.CompletionItem) -> str:
    assert isinstance(item.text_edit, types.TextEdit)
    return item.text_edit.new_text


def labels(found: types.CompletionList) -> list[str]:
    return [item.label for item in sorted(found.items, key=lambda i: i.sort_text or "")]


async def test_keys_of_a_turn_complete_on_a_half_typed_line(push: Client, workspace: Path) -> None:
    doc = open_doc(push, workspace / "bot.agent.yaml", HALF_TYPED)
    found = await complete(push, doc, 13, 11)
    assert labels(found) == [
        "ground_truth",
        "files",
        "retrieval_context",
        "evaluations",
        "turn_config",
    ]
    ground_truth = next(i for i in found.items if i.label == "ground_truth")
    assert ground_truth == types.CompletionItem(
        label="ground_truth",
        kind=types.CompletionItemKind.Property,
        detail="text",
        documentation=types.MarkupContent(
            types.MarkupKind.Markdown,
            "**ground_truth** (text, optional)\n\n"
            "The expected reply, for metrics that compare text.",
        ),
        sort_text="1001",
        text_edit=types.TextEdit(
            types.Range(types.Position(13, 8), types.Position(13, 11)), "ground_truth: "
        ),
        insert_text_format=types.InsertTextFormat.PlainText,
    )


async def test_allowed_values_complete_from_the_models(push: Client, workspace: Path) -> None:
    doc = open_doc(push, workspace / "bot.agent.yaml", HALF_TYPED)
    assert labels(await complete(push, doc, 2, 12)) == [
        "openai",
        "azure_openai",
        "anthropic",
        "ollama",
    ]
    assert labels(await complete(push, doc, 8, 12)) == ["standard", "geval", "rag", "code"]


async def test_templates_are_plain_text_without_snippet_support(
    push: Client, workspace: Path
) -> None:
    doc = open_doc(push, workspace / "bot.agent.yaml", HALF_TYPED)
    found = await complete(push, doc, 18, 8)
    assert [
        (i.label, i.insert_text_format, new_text(i))
        for i in found.items
        if i.kind == types.CompletionItemKind.Snippet
    ] == [
        (
            "turn",
            types.InsertTextFormat.PlainText,
            "input: user message\n        ground_truth: expected reply",
        ),
    ]


async def test_templates_are_snippets_with_snippet_support(pull: Client, workspace: Path) -> None:
    doc = open_doc(pull, workspace / "bot.agent.yaml", HALF_TYPED)
    found = await complete(pull, doc, 18, 8)
    snippets = [i for i in found.items if i.kind == types.CompletionItemKind.Snippet]
    assert snippets == [
        types.CompletionItem(
            label="turn",
            kind=types.CompletionItemKind.Snippet,
            detail="One user message and the expected reply",
            documentation=types.MarkupContent(
                types.MarkupKind.Markdown,
                "```yaml\ninput: user message\n        ground_truth: expected reply\n```",
            ),
            sort_text="20",
            filter_text="input: user message\n        ground_truth: expected reply",
            text_edit=types.TextEdit(
                types.Range(types.Position(18, 8), types.Position(18, 8)),
                "input: ${1:user message}\n        ground_truth: ${2:expected reply}$0",
            ),
            insert_text_format=types.InsertTextFormat.Snippet,
            insert_text_mode=types.InsertTextMode.AsIs,
        )
    ]


async def test_matchers_complete_as_argument_values(pull: Client, workspace: Path) -> None:
    doc = open_doc(pull, workspace / "bot.agent.yaml", HALF_TYPED)
    found = await complete(pull, doc, 17, 22)
    assert [(i.label, new_text(i)) for i in found.items] == [
        ("fuzzy matcher", '{fuzzy: "${1:text}"}$0'),
        ("regex matcher", "{regex: '${1:pattern}'}$0"),
    ]


async def test_new_test_cases_and_expected_tools_come_as_templates(
    pull: Client, workspace: Path
) -> None:
    text = "test_cases:\n  - name: a\n    input: b\n    expected_tools:\n      - \n  \n"
    doc = open_doc(pull, workspace / "cases.yaml", text)
    found = await complete(pull, doc, 4, 8)
    assert [i.label for i in found.items if i.kind == types.CompletionItemKind.Snippet] == [
        "expected tool with args"
    ]
    found = await complete(pull, doc, 5, 2)
    assert [(i.label, new_text(i)) for i in found.items] == [
        (
            "test case (multi-turn)",
            "- name: ${1:case name}\n    turns:\n      - input: ${2:first user message}\n"
            "        ground_truth: ${3:expected reply}\n      - input: ${4:follow-up message}$0",
        ),
        (
            "test case (single-turn)",
            "- name: ${1:case name}\n    input: ${2:user message}\n"
            "    ground_truth: ${3:expected reply}$0",
        ),
    ]
