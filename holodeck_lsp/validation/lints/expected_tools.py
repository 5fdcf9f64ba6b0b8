"""Expected tools and their argument matchers: what HoloDeck accepts but never matches
as written (HL304, HL306, HL307, HL308, HL405, HL407, HL408)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from holodeck_lsp.graders.signatures import Signature, function_signature
from holodeck_lsp.models.test_case import MATCHER_KEYS
from holodeck_lsp.named_files import NotReadable
from holodeck_lsp.validation.collector import Collector
from holodeck_lsp.validation.context import ValidationContext
from holodeck_lsp.validation.lints.matchers import matcher_rules
from holodeck_lsp.validation.project import is_outside
from holodeck_lsp.validation.pydantic_errors import did_you_mean
from holodeck_lsp.validation.yaml.source_map import YamlPath

_PLAIN_ARG = re.compile(r"[^.\[\]]+")
# Tool kinds whose callable names are the declared tool name.
_NAMED_TOOL_TYPES = {"function", "vectorstore", "prompt", "hierarchical_document"}


def tool_rules(
    path: YamlPath,
    exchange: dict[str, Any],
    collector: Collector,
    tool_names: list[str] | None,
    signatures: dict[str, Signature] | None = None,
) -> None:
    tools = exchange.get("expected_tools")
    if not isinstance(tools, list):
        return
    for j, entry in enumerate(tools):
        name = entry if isinstance(entry, str) else None
        if isinstance(entry, dict):
            name = entry.get("name") if isinstance(entry.get("name"), str) else None
            if isinstance(entry.get("count"), bool):
                collector.emit(
                    (*path, "expected_tools", j, "count"),
                    "HL304",
                    f"count: {str(entry['count']).lower()} is read as "
                    f"{int(entry['count'])}; write an integer >= 1",
                    data={"replace_value": 1},
                )
            args = entry.get("args")
            if isinstance(args, dict):
                for key, expected in args.items():
                    at = (*path, "expected_tools", j, "args", key)
                    problem = _arg_key_problem(key)
                    if problem is not None:
                        collector.emit(at, "HL405", problem, part="key")
                    if isinstance(expected, dict) and len(expected) == 1:
                        matcher_rules(at, expected, collector)
                    if problem is None and name and tool_names and signatures:
                        _parameter_rule(at, name, key, tool_names, signatures, collector)
        if name == "":
            collector.emit(
                _name_at(path, j, entry), "HL306", "an empty tool name matches every tool call"
            )
        elif (
            name
            and tool_names is not None
            and name not in tool_names  # the usual case, before the substring search
            and name.strip()
            and not any(name in t for t in tool_names)
        ):
            collector.emit(
                _name_at(path, j, entry),
                "HL307",
                f"no tool of this agent has a name containing {name!r} "
                f"(tools: {', '.join(tool_names) or 'none'})",
            )


def _parameter_rule(
    at: YamlPath,
    name: str,
    key: str,
    tool_names: list[str],
    signatures: dict[str, Signature],
    collector: Collector,
) -> None:
    """HL308: every tool the expected name matches is a function whose parameters are
    known, and none of them takes ``key``."""
    matching = [t for t in tool_names if name in t]
    if not matching or any(
        t not in signatures or signatures[t].takes(key) is not False for t in matching
    ):
        return
    shown = "; ".join(f"{t}({', '.join(signatures[t].names)})" for t in matching)
    guess = did_you_mean(key, [n for t in matching for n in signatures[t].names])
    message = f"no tool matching {name!r} takes an argument {key!r}: {shown}"
    collector.emit(
        at,
        "HL308",
        message + (f"; did you mean {guess!r}?" if guess else ""),
        part="key",
        data={"replace_key": guess} if guess else None,
    )


def function_signatures(
    logical: dict[str, Any], base: Path, ctx: ValidationContext, root: Path
) -> dict[str, Signature]:
    """Each function tool's parameters: its `parameters:` when written (HoloDeck sends
    those and no other), else its function's, read from its `file` without running it.
    A file outside the project ``root``, unreadable, or whose function cannot be read
    gives none."""
    found: dict[str, Signature] = {}
    tools = logical.get("tools")
    for tool in tools if isinstance(tools, list) else []:
        if not isinstance(tool, dict) or tool.get("type") != "function":
            continue
        name, parameters = tool.get("name"), tool.get("parameters")
        if not isinstance(name, str):
            continue
        if isinstance(parameters, dict) and parameters:
            found[name] = Signature(tuple(map(str, parameters)), False, True)
            continue
        file, function = tool.get("file"), tool.get("function")
        if not (isinstance(file, str) and isinstance(function, str)) or "${" in file:
            continue
        signature = _read_signature(base / file, function, ctx, root)
        if signature is not None:
            found[name] = signature
    return found


def _read_signature(
    file: Path, function: str, ctx: ValidationContext, root: Path
) -> Signature | None:
    if is_outside(file, root):
        return None  # nothing of a file outside the project is shown, its names neither
    try:
        source = ctx.read(file)
    except NotReadable:
        return None
    return function_signature(source, function)


def _name_at(path: YamlPath, j: int, entry: Any) -> YamlPath:
    at = (*path, "expected_tools", j)
    return at if isinstance(entry, str) else (*at, "name")


def _arg_key_problem(key: Any) -> str | None:
    if not isinstance(key, str):
        return f"argument name {key!r} is not text; it never matches"
    if not _PLAIN_ARG.fullmatch(key) and key not in MATCHER_KEYS:
        return (
            f"argument name {key!r} has dots or brackets; matchers compare "
            "top-level arguments by plain name"
        )
    return None


def declared_tool_names(logical: dict[str, Any]) -> list[str] | None:
    """Names tool calls can carry, or None when some tool's call names are unknown."""
    model = logical.get("model")
    if isinstance(model, dict) and model.get("provider") == "anthropic":
        return None  # the Claude backend brings built-in tools of its own
    tools = logical.get("tools")
    names: list[str] = []
    for tool in tools if isinstance(tools, list) else []:
        kind = tool.get("type") if isinstance(tool, dict) else None
        if not isinstance(kind, str) or kind not in _NAMED_TOOL_TYPES:  # raw YAML: maybe a dict
            return None
        if isinstance(tool.get("name"), str):
            names.append(tool["name"])
    return names
