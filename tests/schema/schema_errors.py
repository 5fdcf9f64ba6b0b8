"""The committed JSON Schemas applied with `jsonschema`, errors mapped to source lines."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from jsonschema import Draft7Validator
from jsonschema.exceptions import ValidationError

from holodeck_lsp.schema.generate import FILE_NAMES
from holodeck_lsp.validation.file_kinds import kind_of_data
from holodeck_lsp.validation.yaml.loader import load_yaml
from tests.conftest import REPO

SCHEMA_DIR = REPO / "schema"


@functools.cache
def validator(kind: str) -> Draft7Validator:
    schema = json.loads((SCHEMA_DIR / FILE_NAMES[kind]).read_text(encoding="utf-8"))
    return Draft7Validator(schema)


def schema_kind(path: Path, data: Any) -> str:
    """Which committed schema a file is meant for (config files have none)."""
    kind = kind_of_data(path, data)
    assert kind != "config", f"{path} is a config file: no schema covers it"
    return kind


def _leaves(error: ValidationError) -> Iterator[ValidationError]:
    """The errors that say what is wrong, through `anyOf`/`oneOf` alternatives.

    An alternative of the wrong JSON type (`null` beside a mapping) says nothing; the one
    left, if exactly one, holds the real errors.
    """
    if not error.context:
        yield error
        return
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    fitting = [
        errs
        for errs in branches.values()
        if not any(e.validator == "type" and e.path == error.path for e in errs)
        and not any(e.validator == "type" and not e.relative_path for e in errs)
    ]
    if len(fitting) != 1:
        yield error
        return
    for sub in fitting[0]:
        yield from _leaves(sub)


def _paths(error: ValidationError) -> list[tuple[Any, ...]]:
    """Where an error stands: an unexpected key at the key, anything else at its value."""
    path = tuple(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        declared = error.schema.get("properties", {})
        return [path + (key,) for key in error.instance if key not in declared]
    return [path]


def schema_errors(path: Path, kind: str | None = None) -> dict[int, list[str]] | None:
    """1-based line -> schema error messages for one YAML file; None when it is not YAML."""
    try:
        loaded = load_yaml(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        return None
    if not loaded.parsed or any(p.kind == "construct" for p in loaded.problems):
        return None
    found: dict[int, list[str]] = {}
    for error in validator(kind or schema_kind(path, loaded.data)).iter_errors(loaded.data):
        for leaf in _leaves(error):
            for where in _paths(leaf):
                info = loaded.source_map.get(where)
                assert info is not None, f"{path}: no node at {where}"
                # A key introduces the value it names, a mapping too: report there, as `check` does.
                span = info.key if info.key is not None else info.value
                found.setdefault(span.line + 1, []).append(leaf.message)
    return found
