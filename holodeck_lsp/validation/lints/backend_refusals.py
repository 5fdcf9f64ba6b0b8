"""What HoloDeck's backends refuse when they start, though the file loads (HL512):
`holodeck test` stops before its first test case (exit 3, `Error: ... initialization
failed`). `claude.permission_mode: acceptAll` without `i_understand_this_is_unsafe: true`
on an `anthropic` or `ollama` agent (`lib/backends/claude_backend.py:735`); a vector store
or document tool with nothing to embed it: an `anthropic` agent without
`embedding_provider`, or an `embedding_provider` of `anthropic`
(`lib/backends/validators.py:237`; `run` refuses them too when the agent is `anthropic`)."""

from __future__ import annotations

from typing import Any

from holodeck_lsp.models.claude import ClaudeConfig
from holodeck_lsp.validation.collector import Collector
from holodeck_lsp.validation.lints.lax_values import as_read

CLAUDE_BACKEND = ("anthropic", "ollama")
EMBEDDED_TOOLS = ("vectorstore", "hierarchical_document")
STOPS = "`holodeck test` stops before its first test case (exit 3)"


def _provider(block: Any) -> Any:
    return block.get("provider") if isinstance(block, dict) else None


def backend_refusal_rules(logical: dict[str, Any], collector: Collector) -> None:
    provider = _provider(logical.get("model"))
    claude = logical.get("claude")
    if provider in CLAUDE_BACKEND and isinstance(claude, dict):
        opted_in = as_read(ClaudeConfig, "i_understand_this_is_unsafe",
                           claude.get("i_understand_this_is_unsafe", False))  # fmt: skip
        if claude.get("permission_mode") == "acceptAll" and opted_in is not True:
            collector.emit(
                ("claude", "permission_mode"),
                "HL512",
                f"{STOPS}: `permission_mode: acceptAll` lets Claude Code run any tool, and "
                "HoloDeck takes it only with `claude.i_understand_this_is_unsafe: true`",
            )
    tools = logical.get("tools")
    embedded = [
        (i, t) for i, t in enumerate(tools if isinstance(tools, list) else [])
        if isinstance(t, dict) and t.get("type") in EMBEDDED_TOOLS
    ]  # fmt: skip
    if not embedded:
        return
    embedder = logical.get("embedding_provider")
    if _provider(embedder) == "anthropic":
        also = ", and `run` too" if provider == "anthropic" else ""  # others embed with `model`
        collector.emit(
            ("embedding_provider", "provider"),
            "HL512",
            f"{STOPS}{also}: Anthropic has no embeddings API; the `embedding_provider` of "
            "vector store and document tools must be openai, azure_openai or ollama",
        )
    elif provider == "anthropic" and embedder is None:
        index, tool = embedded[0]
        collector.emit(
            ("tools", index, "type"),
            "HL512",
            f"{STOPS}, and `run` too: Anthropic has no embeddings API, so tool "
            f"{tool.get('name')!r} needs an `embedding_provider` (openai, azure_openai or "
            "ollama) to embed its source",
        )
