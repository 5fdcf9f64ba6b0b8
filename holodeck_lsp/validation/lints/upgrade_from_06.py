"""What HoloDeck 0.7 changed under files written for 0.6, checked against 0.7.1's code.

- Two fields were removed (HL701, an error: agent files forbid unknown keys, so a file
  that still sets one no longer loads): `tool_filtering` (parsed and never used) and
  `observability.metrics.include_semantic_kernel_metrics` (its Semantic Kernel agent
  backend is gone). `pydantic_errors` asks `upgrade_facts.removed_field` before calling
  such a key unknown.
- `openai` and `azure_openai` agents now run on the OpenAI Agents SDK, which sends
  `response_format` to the model service as written
  (`lib/backends/openai_agents_output.py`); OpenAI's structured outputs reject `oneOf`,
  and `anyOf` works on both backends (HL702, a warning: the file loads).
- The Claude backend (`anthropic` and `ollama`) passes `setting_sources=[]` unless
  `claude.setting_sources` is set (`lib/backends/claude_backend.py:909`): a project's
  `CLAUDE.md`, skills and hooks no longer load (HL703, a hint beside a `CLAUDE.md`).
- The OpenAI backend reads nothing of `claude:`: subagents under `claude.agents` are
  not used there (HL704).
- A subagent's `model` outside `sonnet`/`opus`/`haiku`/`inherit` is refused by
  HoloDeck's own model (HL104, kept); `upgrade_facts.subagent_model_alias` names the
  alias a full model id stands for, for its quick fix.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from holodeck_lsp.validation.collector import Collector
from holodeck_lsp.validation.yaml.source_map import YamlPath

OPENAI_BACKEND = ("openai", "azure_openai")
CLAUDE_BACKEND = ("anthropic", "ollama")

def upgrade_rules(
    logical: dict[str, Any], collector: Collector, base: Path, schema: Any, inline: bool
) -> None:
    """HL702-HL704 on a merged agent; ``schema`` is its resolved `response_format`
    schema (``inline`` when written in the agent itself, else read from a file)."""
    model = logical.get("model")
    provider = model.get("provider") if isinstance(model, dict) else None
    claude = logical.get("claude")
    if provider in OPENAI_BACKEND:
        _one_of_rules(schema, inline, collector, provider)
        agents = claude.get("agents") if isinstance(claude, dict) else None
        if isinstance(agents, dict) and agents:
            collector.emit(
                ("claude", "agents"),
                "HL704",
                f"an `{provider}` agent runs on HoloDeck 0.7's OpenAI backend, which does not "
                "use `claude.agents` (subagents run on the Claude backend only: provider "
                "anthropic or ollama); these subagents are never called",
                part="key",
            )
    if provider in CLAUDE_BACKEND:
        unset = not isinstance(claude, dict) or claude.get("setting_sources") is None
        if unset and (base / "CLAUDE.md").is_file():
            where: YamlPath = ("claude",) if isinstance(claude, dict) else ("model", "provider")
            collector.emit(
                where,
                "HL703",
                "HoloDeck 0.7 runs the Claude backend isolated from Claude Code's settings: "
                "the CLAUDE.md beside this agent (and the project's skills and hooks) no "
                "longer load unless `claude.setting_sources` names them, e.g. [project]",
                part="key",
                data={"setting_sources": "project"},
            )


def _one_of_rules(schema: Any, inline: bool, collector: Collector, provider: str) -> None:
    found = list(_one_of_paths(schema, (), 0))
    why = (
        "OpenAI's structured outputs reject `oneOf`, and HoloDeck 0.7 sends the schema of "
        f"an `{provider}` agent to the model service as written; `anyOf` works on both "
        "backends"
    )
    if not inline:  # the file's own text is not quoted (it may lie outside the project)
        if found:
            collector.emit(
                ("response_format",), "HL702", f"the schema file uses `oneOf`: {why}"
            )
        return
    for at in found:
        collector.emit(
            ("response_format", *at),
            "HL702",
            f"{why}: write `anyOf` here",
            part="key",
            data={"replace_key": "anyOf"},
        )


# Keywords whose value is a schema, a list of schemas, or a mapping of names to schemas.
_ONE = ("items", "additionalProperties", "not", "if", "then", "else", "contains",
        "propertyNames", "additionalItems", "unevaluatedItems", "unevaluatedProperties")
_MANY = ("allOf", "anyOf", "oneOf", "prefixItems")
_NAMED = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_DEPTH = 64  # a schema nested deeper is not walked further (a budget, not a rule)


def _one_of_paths(schema: Any, at: tuple[Any, ...], depth: int) -> Iterator[tuple[Any, ...]]:
    """Where `oneOf` is a keyword of ``schema`` (never a property that is named so)."""
    if not isinstance(schema, dict) or depth > _DEPTH:
        return
    for key, value in schema.items():
        if key == "oneOf":
            yield (*at, key)
        if key in _ONE:
            if isinstance(value, list):  # `items` as a list: draft 4's tuple form
                for i, item in enumerate(value):
                    yield from _one_of_paths(item, (*at, key, i), depth + 1)
            else:
                yield from _one_of_paths(value, (*at, key), depth + 1)
        elif key in _MANY and isinstance(value, list):
            for i, item in enumerate(value):
                yield from _one_of_paths(item, (*at, key, i), depth + 1)
        elif key in _NAMED and isinstance(value, dict):
            for name, item in value.items():
                yield from _one_of_paths(item, (*at, key, name), depth + 1)
