"""What users type most, completed over the protocol: an expected tool's name from the
agent's tools (functions, a vector store, and an MCP server's tools once the suite's
recording has seen them), its `args` keys from the tool's parameters (a function's read
from its source, never run); and a matcher's own documentation on hover."""

from __future__ import annotations

import json
from pathlib import Path

from lsprotocol import types

from tests.server.lsp_client import Client, open_doc
from tests.server.shared_servers import SHARES_SERVERS
from tests.server.test_completion import complete, labels, new_text

pytestmark = SHARES_SERVERS

TOOLS = '''
import sys

sys.exit("completion must never import this file")


def lookup(metric: str, year: str, *, unit: str = "usd"):
    return metric
'''
# Trailing spaces matter: the cursor stands after them.
AGENT = (
    "\n".join(
        [
            "name: finance",  # 0
            "model: {provider: openai, name: gpt-4o}",
            "instructions: {inline: Answer.}",
            "tools:",
            "  - {name: lookup, type: function, file: tools.py, function: lookup,",
            "     description: A figure.}",  # 5
            "  - name: filings",
            "    type: vectorstore",
            "    description: Filings.",
            "    source: docs",
            "  - name: web",  # 10
            "    type: mcp",
            "    description: The web.",
            "    command: npx",
            "    args: [-y, some-mcp-server]",
            "test_cases:",  # 15
            "  - name: cash",
            "    turns:",
            "      - input: What was the cash in 2019?",
            "        expected_tools:",
            "          - name: ",  # 20
            "          - name: lookup",
            "            args:",
            "              metric: cash",
            "              ",
            "          - name: fetch",  # 25
            "            args:",
            "              ",
            "          - ",
            "          - name: x",
            "            args:",  # 30
            "              year: {fuzzy: '2019'}",
            "",
        ]
    )
    + "\n"
)
RECORDED = {
    "fingerprint": "f",
    "test_case": "cash",
    "turn_index": 0,
    "message": "What was the cash in 2019?",
    "reply": {
        "text": "206,588",
        "tool_invocations": [
            {"name": "fetch", "args": {"url": "https://x", "max_length": 5000}, "result": "..."},
            {"name": "lookup", "args": {"metric": "cash", "year": "2019"}, "result": 1},
        ],
        "token_usage": None,
    },
}


def _write(workspace: Path) -> Path:
    (workspace / "tools.py").write_text(TOOLS, encoding="utf-8")
    (workspace / "replay.jsonl").write_text(json.dumps(RECORDED) + "\n", encoding="utf-8")
    return workspace / "finance.agent.yaml"


async def test_an_expected_tools_name_completes_from_the_agents_tools(
    push: Client, workspace: Path
) -> None:
    doc = open_doc(push, _write(workspace), AGENT)
    found = await complete(push, doc, 20, 18)
    assert labels(found) == ["lookup", "filings", "fetch"]
    assert [(i.label, i.detail) for i in sorted(found.items, key=lambda i: i.sort_text or "")] == [
        ("lookup", "function lookup in tools.py"),
        ("filings", "vectorstore tool"),
        ("fetch", "seen in replay.jsonl"),  # the MCP server's tool, once it has answered
    ]
    lookup = next(i for i in found.items if i.label == "lookup")
    assert new_text(lookup) == "lookup"
    assert lookup.documentation == types.MarkupContent(
        types.MarkupKind.Markdown,
        "`lookup`: function lookup in tools.py; arguments: metric, year, unit",
    )
    # The short form, `- name`: the names beside the keys of an expected tool.
    short = await complete(push, doc, 28, 12)
    assert labels(short)[:3] == ["lookup", "filings", "fetch"]
    assert "name" in labels(short)


async def test_args_keys_complete_from_the_tools_parameters(pull: Client, workspace: Path) -> None:
    doc = open_doc(pull, _write(workspace), AGENT)
    found = await complete(pull, doc, 24, 14)  # `metric` is written: the others are left
    assert labels(found) == ["year", "unit"]
    assert [new_text(i) for i in found.items] == ["year: ", "unit: "]
    assert {i.detail for i in found.items} == {"argument of lookup"}
    mcp = await complete(pull, doc, 27, 14)  # an MCP tool: the arguments it was called with
    assert labels(mcp) == ["url", "max_length"]


async def test_a_matcher_hovers_with_its_own_documentation(push: Client, workspace: Path) -> None:
    doc = open_doc(push, _write(workspace), AGENT)
    hover = await push.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(doc), types.Position(31, 23))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.value.startswith(
        "**fuzzy** (text, required)\n\nFuzzy matcher: the argument's value matches when, "
        "both sides lower-cased and trimmed"
    )
    assert "Arguments one single call must carry" not in hover.contents.value  # not `args`'
