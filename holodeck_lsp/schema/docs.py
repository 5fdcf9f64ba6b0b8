"""`markdownDescription` beside every description, and the editors' `defaultSnippets`."""

from __future__ import annotations

import json
from typing import Any

import yaml

from holodeck_lsp.editing import snippets
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


def _snippet_value(value: Any) -> Any:
    """A body value as JSON: a placeholder whose default is a number or a boolean becomes
    that value (yaml-language-server would insert a string placeholder quoted)."""
    if isinstance(value, dict):
        return {_snippet_value(k): _snippet_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_snippet_value(v) for v in value]
    if isinstance(value, str) and snippets.plain(value) != value:
        default = yaml.safe_load(snippets.plain(value))
        if isinstance(default, (bool, int, float)):
            return default
    return value


def _default_snippet(snippet: snippets.Snippet) -> Schema:
    body = yaml.safe_load(snippet.body.removesuffix("$0"))
    return {
        "label": f"New {snippet.label}",
        "description": f"{snippet.detail}.",
        "body": _snippet_value(body),
    }


def add_snippets(defs: dict[str, Schema]) -> None:
    """The editor's own templates (editing/snippets.py), as JSON bodies."""
    defs["TestCaseModel"]["defaultSnippets"] = [
        _default_snippet(s) for s in snippets.TEST_CASES
    ]
    defs["Turn"]["defaultSnippets"] = [_default_snippet(snippets.TURN)]
    defs["ExpectedTool"]["defaultSnippets"] = [_default_snippet(snippets.EXPECTED_TOOL)]
