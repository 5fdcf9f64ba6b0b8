"""`${VAR}` substitution in the raw text of a file, before it is parsed, as HoloDeck does."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from holodeck_lsp.validation.env_refs import ENV_REF


@dataclass(frozen=True)
class UnsetVariable:
    name: str
    line: int  # 1-based
    column: int  # 1-based


def substitute(text: str, env: Mapping[str, str]) -> tuple[str, list[UnsetVariable]]:
    """The text with every set variable replaced, and each unset reference."""
    unset: list[UnsetVariable] = []

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in env:
            return env[name]
        line = text.count("\n", 0, match.start()) + 1
        column = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
        unset.append(UnsetVariable(name, line, column))
        return match.group(0)

    return ENV_REF.sub(replace, text), unset
