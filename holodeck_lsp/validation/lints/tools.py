"""Expected tools and their argument matchers: what HoloDeck accepts but never matches
as written (HL304, HL306, HL307, HL405)."""

from __future__ import annotations

import re
from typing import Any

from holodeck_lsp.models.test_case import MATCHER_KEYS
from holodeck_lsp.validation.collector import Collector
from holodeck_lsp.validation.yaml.source_map import YamlPath

_PLAIN_ARG = re.compile(r"[^.\[\]]+")
# Tool kinds whose callable names are the declared tool name.
_NAMED_TOOL_TYPES = {"function", "vectorstore", "prompt", "hierarchical_document"}


def tool_rules(
    path: YamlPath, exchange: dict[str, Any], collector: Collector, tool_names: list[str] | None
) -> None:
    tools = exchange.get("expected_tools")
    if not isinstance(tools, list):
        return
    for j, entry in enumerate(tools):
        at = (*path, "expected_tools", j)
        name = entry if isinstance(entry, str) else None
        if isinstance(entry, dict):
            name = entry.get("name") if isinstance(entry.get("name"), str) else None
            if isinstance(entry.get("count"), bool):
                collector.emit(
                    (*at, "count"),
                    "HL304",
                    f"count: {str(entry['count']).lower()} is read as "
                    f"{int(entry['count'])}; write an integer >= 1",
                    data={"replace_value": 1},
                )
            args = entry.get("args")
            if isinstance(args, dict):
                for key in args:
                    _arg_key_rule((*at, "args", key), key, collector)
        if name == "":
            collector.emit(
                at if isinstance(entry, str) else (*at, "name"),
                "HL306",
                "an empty tool name matches every tool call",
            )
        elif (
            name
            and name.strip()
            and tool_names is not None
            and not any(name in t for t in tool_names)
        ):
            collector.emit(
                at if isinstance(entry, str) else (*at, "name"),
                "HL307",
                f"no tool of this agent has a name containing {name!r} "
                f"(tools: {', '.join(tool_names) or 'none'})",
            )


def _arg_key_rule(at: YamlPath, key: Any, collector: Collector) -> None:
    if not isinstance(key, str):
        collector.emit(
            at, "HL405", f"argument name {key!r} is not text; it never matches", part="key"
        )
    elif not _PLAIN_ARG.fullmatch(key) and key not in MATCHER_KEYS:
        collector.emit(
            at,
            "HL405",
            f"argument name {key!r} has dots or brackets; matchers compare "
            "top-level arguments by plain name",
            part="key",
        )


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
