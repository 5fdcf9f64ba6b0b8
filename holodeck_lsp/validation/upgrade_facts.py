"""What HoloDeck 0.7 removed or narrowed, as facts the model errors and the fixes read
(lints/upgrade_from_06.py has the rules and tells the whole story)."""

from __future__ import annotations

from typing import Any

from holodeck_lsp.validation.yaml.source_map import YamlPath

SUBAGENT_MODELS = ("sonnet", "opus", "haiku", "inherit")

_REMOVED: dict[YamlPath, str] = {
    ("tool_filtering",): (
        "HoloDeck 0.7 removed `tool_filtering` (0.6 parsed it and never used it: Claude "
        "picks its tools itself), and as agent files forbid unknown keys it no longer "
        "loads a file that sets it; delete the block"
    ),
    ("observability", "metrics", "include_semantic_kernel_metrics"): (
        "HoloDeck 0.7 removed `metrics.include_semantic_kernel_metrics` with its "
        "Semantic Kernel agent backend, and no longer loads a file that sets it; delete it"
    ),
}


def removed_field(path: YamlPath) -> str | None:
    """Why HoloDeck 0.7 refuses the agent-file key at ``path``, if 0.7 removed it."""
    return _REMOVED.get(path)


SUBAGENT_MODEL_NOTE = (
    " (the Claude CLI silently drops a subagent whose model is not one of these aliases, "
    "so HoloDeck refuses it)"
)


def is_subagent_model(path: YamlPath) -> bool:
    return len(path) == 4 and path[:2] == ("claude", "agents") and path[3] == "model"


def subagent_model_alias(path: YamlPath, value: Any) -> str | None:
    """The alias a subagent's full model id names (`claude-haiku-4-5` -> `haiku`)."""
    if not is_subagent_model(path) or not isinstance(value, str):
        return None
    named = [alias for alias in SUBAGENT_MODELS[:3] if alias in value.lower()]
    return named[0] if len(named) == 1 else None
