"""`markdownDescription` beside every description, and the editors' `defaultSnippets`."""

from __future__ import annotations

import json

from holodeck_lsp.schema.nodes import Schema, refs_in, walk


def markdown(schema: Schema) -> str:
    text = str(schema["description"])
    if "default" in schema:
        text += f"\n\nDefault: `{json.dumps(schema['default'], ensure_ascii=False)}`"
    return text


def describe(defs: dict[str, Schema]) -> None:
    """`markdownDescription` beside every description; a model's own for a bare reference."""
    for node in walk(defs):
        for prop in node.get("properties", {}).values():
            if not isinstance(prop, dict):
                continue
            if "description" not in prop:
                refs = sorted(refs_in(prop))
                if len(refs) == 1 and "description" in defs[refs[0]]:
                    prop["description"] = defs[refs[0]]["description"]
            if "description" in prop:
                prop["markdownDescription"] = markdown(prop)
    for definition in defs.values():
        if "description" in definition:
            definition["markdownDescription"] = definition["description"]


def add_snippets(defs: dict[str, Schema]) -> None:
    defs["TestCaseModel"]["defaultSnippets"] = [
        {
            "label": "New test case (single turn)",
            "description": "One user message, the expected reply and the tools to call.",
            "body": {
                "name": "${1:case name}",
                "input": "${2:user message}",
                "ground_truth": "${3:expected reply}",
            },
        },
        {
            "label": "New test case (multi-turn)",
            "description": "A conversation: turns sent in order on one session.",
            "body": {
                "name": "${1:case name}",
                "turns": [
                    {"input": "${2:first user message}", "ground_truth": "${3:expected reply}"},
                    {"input": "${4:follow-up message}"},
                ],
            },
        },
    ]
    defs["Turn"]["defaultSnippets"] = [
        {
            "label": "New turn",
            "description": "The next user message of the conversation and what to expect.",
            "body": {"input": "${1:user message}", "ground_truth": "${2:expected reply}"},
        }
    ]
    defs["ExpectedTool"]["defaultSnippets"] = [
        {
            "label": "Expected tool with args",
            "description": "A call that must carry these arguments, at least `count` times.",
            "body": {
                "name": "${1:tool_name}",
                "args": {"${2:argument}": "${3:value}", "${4:other}": {"fuzzy": "${5:text}"}},
                "count": 1,
            },
        }
    ]
