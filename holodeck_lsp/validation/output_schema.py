"""An agent's `response_format`: the JSON Schema its replies must follow, resolved as
HoloDeck resolves it (an inline mapping, or a path to a JSON file beside the agent file),
and the problems that make `holodeck test` fail before the first reply.

One home for this fact: `check` reports the problems (HL610-HL612) and `run` sends the
schema it resolves here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# A schema file larger than this is refused unread: no real schema comes near it.
MAX_SCHEMA_BYTES = 1_000_000


@dataclass(frozen=True)
class SchemaProblem:
    code: str  # HL610 (file not found), HL611 (not a JSON object), HL612 (not a JSON Schema)
    message: str
    at: tuple[str | int, ...] = ()  # where in an inline schema


@dataclass(frozen=True)
class ResolvedSchema:
    schema: dict[str, Any] | None  # None: no structured output (or a problem)
    problem: SchemaProblem | None = None


def schema_file(value: str, folder: Path) -> Path:
    path = Path(value)
    return path if path.is_absolute() else folder / path


def _file_problem(target: Path) -> str | None:
    """Why the file cannot be read as a schema: only a regular file of bounded size is."""
    try:
        if not target.exists():
            return "not found"
        if not target.is_file():
            return "is not a regular file"
        if target.stat().st_size > MAX_SCHEMA_BYTES:
            return f"is larger than {MAX_SCHEMA_BYTES} bytes"
    except (OSError, ValueError) as exc:  # a NUL byte or an over-long name, permissions
        return f"cannot be read ({getattr(exc, 'strerror', None) or exc})"
    return None


def schema_error(schema: dict[str, Any]) -> tuple[str, tuple[str | int, ...]] | None:
    """Why ``schema`` is not a JSON Schema, and where in it (jsonschema's own check of the
    schema, which HoloDeck's check of the first reply runs first), or None."""
    import jsonschema  # only agents with a response_format pay for the import

    try:
        jsonschema.validators.validator_for(schema).check_schema(schema)
    except jsonschema.SchemaError as exc:
        return exc.message, tuple(exc.path)
    return None


def resolve_schema(
    value: object, folder: Path, read: Callable[[Path], str | None]
) -> ResolvedSchema:
    """The schema of ``response_format: value`` for an agent file in ``folder``.

    ``read`` gives a file's text (None when it cannot be read); it is called only on a
    regular file of bounded size. (The one reader of files a YAML names is being built;
    until it lands, `check` passes `ValidationContext.read` and `run` its own bounded read.)"""
    if value is None:
        return ResolvedSchema(None)
    if isinstance(value, dict):
        error = schema_error(value)
        if error is not None:
            message, at = error
            return ResolvedSchema(None, SchemaProblem("HL612", f"not a JSON Schema: {message}", at))
        return ResolvedSchema(value)
    if not isinstance(value, str):
        return ResolvedSchema(None)  # the model's own type check reports it
    target = schema_file(value, folder)
    why = _file_problem(target)
    text = read(target) if why is None else None
    if text is None:
        reason = why or "cannot be read as UTF-8 text"
        return ResolvedSchema(
            None, SchemaProblem("HL610", f"response_format schema file {reason}: {target}")
        )
    try:
        parsed = json.loads(text)
    except ValueError as exc:
        return ResolvedSchema(
            None, SchemaProblem("HL611", f"response_format schema file is not JSON: {exc}")
        )
    if not isinstance(parsed, dict):
        message = f"response_format schema file must hold a JSON object: {target}"
        return ResolvedSchema(None, SchemaProblem("HL611", message))
    error = schema_error(parsed)
    if error is not None:
        message, at = error
        where = f" (at {'/'.join(map(str, at))})" if at else ""
        text = f"response_format schema file {value!r} is not a JSON Schema: {message}{where}"
        return ResolvedSchema(None, SchemaProblem("HL612", text))
    return ResolvedSchema(parsed)
