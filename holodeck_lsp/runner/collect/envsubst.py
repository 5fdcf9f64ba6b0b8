"""`${VAR}` substitution in the raw text of a file, before it is parsed, as HoloDeck does."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from holodeck_lsp.runner.services.secret_sources import SECRET_MAPPINGS, SECRET_NAME
from holodeck_lsp.validation.env_refs import ENV_REF
from holodeck_lsp.validation.yaml.loader import load_yaml


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


def outside_secret_fields(raw: str, unset: list[UnsetVariable]) -> list[UnsetVariable]:
    """The references of ``unset`` that are not the value of a secret field of the
    configuration (a key, a token, a password, an `env:` or `headers:` entry); test cases
    are data, never secret fields. A file that does not parse keeps them all."""
    if not unset:
        return unset
    loaded = load_yaml(raw)
    if not loaded.parsed:
        return unset
    kept = []
    for reference in unset:
        path = loaded.source_map.path_at(reference.line - 1, reference.column - 1)
        if path is None or not _secret_field(path):
            kept.append(reference)
    return kept


def _secret_field(path: tuple[object, ...]) -> bool:
    if not path or path[0] == "test_cases" or not isinstance(path[-1], str):
        return False
    return SECRET_NAME.search(path[-1]) is not None or (
        len(path) > 1 and path[-2] in SECRET_MAPPINGS
    )
