"""Completion candidates at a cursor: keys, allowed values and entry snippets; and at an
expected tool's `name` and its `args` keys, the agent's tools and their arguments
(`declared_tools`, handed in by the caller, which reads the files they come from).

Every key and value comes from the models (through `model_tree`/`field_docs`); the
cursor's place comes from `yaml_cursor`, which reads indentation, so a document that
does not parse yet (a half-typed line) still completes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel

from holodeck_lsp.editing import snippets
from holodeck_lsp.editing.cursor import CursorContext, cursor_context, owner_siblings, unquote
from holodeck_lsp.editing.declared_tools import ToolChoice
from holodeck_lsp.editing.field_docs import (
    describe_field,
    field_doc,
    is_matcher_mapping,
    matcher_doc,
    parent_models,
    render,
)
from holodeck_lsp.editing.model_roots import ROOTS, logical_path
from holodeck_lsp.models.evaluation import CodeMetric
from holodeck_lsp.models.test_case import MATCHER_KEYS, ExpectedTool, TestCaseModel, Turn
from holodeck_lsp.validation.file_kinds import Kind
from holodeck_lsp.validation.model_tree import models_in, type_at, union_members, unwrap
from holodeck_lsp.validation.yaml.source_map import YamlPath

ItemKind = Literal["key", "value", "snippet"]
_PLAIN_SAFE = re.compile(r"[A-Za-z_][\w.-]*")
# Plain words YAML 1.1 reads as something other than text.
_YAML11_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"}


@dataclass(frozen=True)
class CompletionItem:
    label: str
    kind: ItemKind
    text: str  # what a client without snippet support inserts
    snippet: str | None  # the same with tab stops, when the item has any
    detail: str
    documentation: str  # Markdown
    documentation_plain: str
    sort: str


@dataclass(frozen=True)
class Completions:
    """Candidates, all replacing [start, end) of ``line`` (code points)."""

    line: int
    start: int
    end: int
    items: list[CompletionItem]


def yaml_scalar(value: str) -> str:
    """A value written so that YAML reads it back as this text."""
    if _PLAIN_SAFE.fullmatch(value) and value.lower() not in _YAML11_WORDS:
        return value
    return json.dumps(value)


def _is_list(tp: Any) -> bool:
    return get_origin(unwrap(tp)) in (list, tuple)


def _block_value(tp: Any) -> bool:
    """Whether a field's value is written on the following lines (a mapping)."""
    members = union_members(tp)
    return bool(members) and all(
        bool(models_in(m)) or get_origin(unwrap(m)) is dict for m in members
    )


def _key_items(root: type[BaseModel], ctx: CursorContext, path: YamlPath) -> list[CompletionItem]:
    items: list[CompletionItem] = []
    taken = set(ctx.siblings)
    indent = " " * (ctx.column + 2)
    if is_matcher_mapping(root, path):
        for i, key in enumerate(MATCHER_KEYS):
            if key not in taken:
                doc = matcher_doc(key)
                items.append(
                    CompletionItem(
                        key,
                        "key",
                        f"{key}: ",
                        None,
                        doc.type,
                        render(doc),
                        render(doc, False),
                        f"0{i:03d}",
                    )
                )
        return items
    seen: set[str] = set()
    for model in parent_models(root, path, ctx.siblings):
        for i, (name, info) in enumerate(model.model_fields.items()):
            if name in taken or name in seen:
                continue
            seen.add(name)
            doc = describe_field(name, info)
            if _is_list(info.annotation):
                text = f"{name}:\n{indent}- "
            elif _block_value(info.annotation):
                text = f"{name}:\n{indent}"
            else:
                text = f"{name}: "
            sort = f"{0 if doc.required else 1}{i:03d}"
            items.append(
                CompletionItem(
                    name, "key", text, None, doc.type, render(doc), render(doc, False), sort
                )
            )
    return items


def _snippets_for(item_type: Any) -> tuple[snippets.Snippet, ...]:
    models = models_in(item_type) if item_type is not None else []
    if TestCaseModel in models:
        return snippets.TEST_CASES
    if Turn in models:
        return (snippets.TURN,)
    if ExpectedTool in models:
        return (snippets.EXPECTED_TOOL,)
    if CodeMetric in models:
        return snippets.METRICS
    return ()


def _snippet_item(snippet: snippets.Snippet, column: int, dash: bool, sort: str) -> CompletionItem:
    body = snippets.render(snippet.body, column, dash)
    text = snippets.plain(body)
    return CompletionItem(
        snippet.label, "snippet", text, body, snippet.detail, f"```yaml\n{text}\n```", text, sort
    )


def _value_items(root: type[BaseModel], ctx: CursorContext) -> list[CompletionItem]:
    items: list[CompletionItem] = []
    if is_matcher_mapping(root, ctx.path):
        items.extend(
            _snippet_item(s, ctx.start, False, f"0{i}") for i, s in enumerate(snippets.MATCHERS)
        )
        return items
    doc = field_doc(root, ctx.path, ctx.siblings)
    if doc is None:
        return items
    for i, value in enumerate(doc.allowed):
        text = value if value in ("true", "false") else yaml_scalar(value)
        items.append(
            CompletionItem(
                value, "value", text, None, doc.name, render(doc), render(doc, False), f"{i:03d}"
            )
        )
    return items


def _is_expected_tool(root: type[BaseModel], path: YamlPath) -> bool:
    return bool(path) and isinstance(path[-1], int) and ExpectedTool in models_in(
        type_at(root, path) or type(None)
    )


def _tool_slot(root: type[BaseModel], ctx: CursorContext, path: YamlPath) -> str | None:
    """"name" at an expected tool's name (`name: |`, or `- |` for the short form), "args"
    at a key of its `args`; None elsewhere."""
    if ctx.mode == "value" and path[-1:] == ("name",) and _is_expected_tool(root, path[:-1]):
        return "name"
    if ctx.mode == "key" and ctx.on_dash and _is_expected_tool(root, path):
        return "name"
    if ctx.mode == "key" and path[-1:] == ("args",) and _is_expected_tool(root, path[:-1]):
        return "args"
    return None


def wants_tools(text: str, line: int, character: int, kind: Kind) -> bool:
    """Whether completion at the cursor offers the agent's tools or their arguments (so
    the caller reads them first)."""
    ctx = cursor_context(text, line, character) if kind == "agent" else None
    return ctx is not None and _tool_slot(ROOTS[kind], ctx, ctx.path) is not None


def _tool_items(
    slot: str, text: str, line: int, ctx: CursorContext, tools: Sequence[ToolChoice]
) -> list[CompletionItem]:
    if slot == "name":
        return [
            CompletionItem(
                t.name,
                "value",
                yaml_scalar(t.name),
                None,
                t.origin,
                f"`{t.name}`: {t.origin}" + _arguments(t),
                f"{t.name}: {t.origin}" + _arguments(t),
                f" {i:03d}",  # before the keys of the short form's dash line
            )
            for i, t in enumerate(tools)
        ]
    # An argument: of the tools the expected name matches (a substring, as calls match).
    name = unquote(owner_siblings(text, line, ctx.column).get("name", ""))
    arguments: dict[str, list[str]] = {}
    for t in tools:
        if name in t.name:
            for argument in t.arguments:
                arguments.setdefault(argument, []).append(t.name)
    return [
        CompletionItem(
            argument,
            "key",
            f"{yaml_scalar(argument)}: ",
            None,
            f"argument of {', '.join(owners)}",
            f"An argument of `{'`, `'.join(owners)}`.",
            f"An argument of {', '.join(owners)}.",
            f"0{i:03d}",
        )
        for i, (argument, owners) in enumerate(arguments.items())
        if argument not in ctx.siblings
    ]


def _arguments(tool: ToolChoice) -> str:
    return f"; arguments: {', '.join(tool.arguments)}" if tool.arguments else ""


def complete(
    text: str,
    line: int,
    character: int,
    kind: Kind,
    tools: Sequence[ToolChoice] | None = None,
) -> Completions | None:
    """What may be written at (line, character); None where nothing is known. With
    ``tools``, an expected tool's name and its `args` keys are offered from them."""
    ctx = cursor_context(text, line, character)
    if ctx is None:
        return None
    root = ROOTS[kind]
    path = logical_path(kind, ctx.path)
    items: list[CompletionItem] = []
    slot = _tool_slot(root, ctx, path) if tools else None
    if slot is not None and tools:
        items = _tool_items(slot, text, line, ctx, tools)
    if ctx.mode == "value":
        items += _value_items(root, replace(ctx, path=path))
    elif ctx.mode == "item":
        item_type = type_at(root, (*path, 0))
        items = [
            _snippet_item(s, ctx.column, True, f"0{i}")
            for i, s in enumerate(_snippets_for(item_type))
        ]
    else:
        tp = type_at(root, path)
        if tp is None:
            return None
        if _is_list(tp):  # under `key:` of a list: a first item, dash included
            item_type = get_args(unwrap(tp))[0] if get_args(unwrap(tp)) else None
            items = [
                _snippet_item(s, ctx.column, True, f"0{i}")
                for i, s in enumerate(_snippets_for(item_type))
            ]
        else:
            items += _key_items(root, ctx, path)
            if ctx.on_dash:  # the line opened an item: whole-entry templates fit too
                items.extend(
                    _snippet_item(s, ctx.column, False, f"2{i}")
                    for i, s in enumerate(_snippets_for(tp))
                )
    if ctx.lead:
        items = [_lead(item, ctx.lead) for item in items]
    return Completions(line, ctx.start, ctx.end, items)


def _lead(item: CompletionItem, lead: str) -> CompletionItem:
    return CompletionItem(
        item.label,
        item.kind,
        lead + item.text,
        None if item.snippet is None else lead + item.snippet,
        item.detail,
        item.documentation,
        item.documentation_plain,
        item.sort,
    )
