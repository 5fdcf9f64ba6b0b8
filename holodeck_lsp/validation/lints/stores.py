"""Vector stores: a tool's `database:` that names no store of the merged config (HL606)."""

from __future__ import annotations

from typing import Any

from holodeck_lsp.validation.collector import Collector
from holodeck_lsp.validation.config_merge import ConfigFile, store_names
from holodeck_lsp.validation.pydantic_errors import did_you_mean


def unknown_stores(
    references: list[tuple[int, str]],
    merged: dict[str, Any],
    configs: list[ConfigFile],
    collector: Collector,
) -> None:
    """HoloDeck runs a tool whose `database:` names no known vector store in memory."""
    names = store_names(configs)
    for index, name in references:
        if name in names or isinstance(merged["tools"][index].get("database"), dict):
            continue  # resolved (or left by a `${VAR}` the merge could not judge)
        if names:
            where = " or ".join(sorted({c.path.name for c in configs}))
            message = f"no vector store {name!r} in {where} (it has {', '.join(names)})"
        else:
            message = f"no config.yaml defines vector store {name!r}"
        message += "; HoloDeck falls back to in-memory storage"
        guess = did_you_mean(name, names)
        message += f"; did you mean {guess!r}?" if guess else ""
        collector.emit(
            ("tools", index, "database"),
            "HL606",
            message,
            data={"replace_value": guess} if guess else None,
        )
