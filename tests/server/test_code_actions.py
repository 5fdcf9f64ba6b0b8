"""Quick fixes through the protocol: each edit applied, then validated again by the server."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from tests.server.lsp_client import Client, apply_edits, open_doc, replace_all
from tests.server.shared_servers import SHARES_SERVERS

pytestmark = SHARES_SERVERS

BROKEN = """name: bot
model:
  provider: opnai
  name: gpt-4o
instructions:
  inline: Be brief.
tools:
  - name: lookup_order
    type: function
    file: tools.py
    function: lookup_order
    description: Find an order.
test_cases:
  - name: refund
    input: I want a refund  # asked first
    turns:
      - ground_truth: Sure
    retrieval_context:
      - Refunds take 5 days.
  - name: counts
    input: Check
    grund_truth: 42
    expected_tools:
      - name: lookup_order
        count: true
      - name: lookup_order
        count: 0
"""

FIXED = """name: bot
model:
  provider: openai
  name: gpt-4o
instructions:
  inline: Be brief.
tools:
  - name: lookup_order
    type: function
    file: tools.py
    function: lookup_order
    description: Find an order.
test_cases:
  - name: refund
    turns:
      - ground_truth: Sure
        input: I want a refund  # asked first
        retrieval_context:
          - Refunds take 5 days.
  - name: counts
    input: Check
    ground_truth: "42"
    expected_tools:
      - name: lookup_order
        count: 1
      - name: lookup_order
        count: 1
"""


async def actions_for(
    client: Client, doc: str, diagnostic: types.Diagnostic, only: list[str] | None = None
) -> list[types.CodeAction]:
    found = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(doc),
            diagnostic.range,
            types.CodeActionContext(diagnostics=[diagnostic], only=only),
        )
    )
    return [a for a in found or [] if isinstance(a, types.CodeAction)]


async def test_every_quick_fix_applies_and_the_result_validates(
    push: Client, workspace: Path
) -> None:
    doc = open_doc(push, workspace / "bot.agent.yaml", BROKEN)
    text, version = BROKEN, 1
    diagnostics = await push.diagnostics_of(doc, version=version)
    assert [d.code for d in diagnostics] == [
        "HL104",
        "HL201",
        "HL102",
        "HL201",
        "HL101",
        "HL304",
        "HL303",
    ]
    applied = []
    while True:
        for diagnostic in diagnostics:
            actions = await actions_for(push, doc, diagnostic, [types.CodeActionKind.QuickFix])
            if actions:
                break
        else:
            break
        action = actions[0]
        assert action.kind == types.CodeActionKind.QuickFix
        assert list(action.diagnostics or []) == [diagnostic]
        assert action.edit is not None and action.edit.changes is not None
        applied.append(action.title)
        text = apply_edits(text, list(action.edit.changes[doc]))
        version += 1
        replace_all(push, doc, text, version)
        diagnostics = await push.diagnostics_of(doc, version=version)
    assert applied == [
        "Change 'opnai' to 'openai'",
        "Move 'input' into turns[0]",
        "Move 'retrieval_context' into turns[0]",
        "Rename 'grund_truth' to 'ground_truth'",
        'Quote as "42"',
        "Set count: 1",
        "Set count: 1",
    ]
    assert text == FIXED
    assert diagnostics == []


async def test_a_single_turn_case_converts_to_a_multi_turn_case(
    push: Client, workspace: Path
) -> None:
    text = FIXED.replace("refund", "refund  # the first case")
    doc = open_doc(push, workspace / "bot.agent.yaml", text)
    await push.diagnostics_of(doc, version=1)
    found = await push.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(doc),
            types.Range(types.Position(19, 6), types.Position(19, 6)),
            types.CodeActionContext(diagnostics=[]),
        )
    )
    assert found is not None
    (action,) = found
    assert isinstance(action, types.CodeAction)
    assert (action.title, action.kind) == (
        "Convert to a multi-turn test case",
        types.CodeActionKind.RefactorRewrite,
    )
    assert action.edit is not None and action.edit.changes is not None
    converted = apply_edits(text, list(action.edit.changes[doc]))
    assert converted == text.replace(
        """    input: Check
    ground_truth: "42"
    expected_tools:
      - name: lookup_order
        count: 1
      - name: lookup_order
        count: 1
""",
        """    turns:
      - input: Check
        ground_truth: "42"
        expected_tools:
          - name: lookup_order
            count: 1
          - name: lookup_order
            count: 1
""",
    )
    replace_all(push, doc, converted, 2)
    assert await push.diagnostics_of(doc, version=2) == []
