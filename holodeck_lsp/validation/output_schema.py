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

from holodeck_lsp.named_files import NotReadable
from holodeck_lsp.nesting import TooDeep, loads
from holodeck_lsp.validation.named import REFUSAL_CODES

MISSING_CODE = "HL610"  # also a folder, a file that is not UTF-8 text, an unreadable one


@dataclass(frozen=True)
class SchemaProblem:
    code: str  # HL610 (file not found), HL611 (not a JSON object), HL612 (not a JSON Schema)
    message: str
    at: tuple[str | int, ...] = ()  # where in an inline schema
    # The message without what it quotes of the file (for a file outside the project).
    summary: str = ""


@dataclass(frozen=True)
class ResolvedSchema:
    schema: dict[str, Any] | None  # None: no structured output (or a problem)
    problem: SchemaProblem | None = None


def schema_file(value: str, folder: Path) -> Path:
    path = Path(value)
    return path if path.is_absolute() else folder / path


def described(value: str) -> str:
    """How a message names the schema file ``response_format: value``."""
    return f"response_format schema file {value!r}"


def schema_error(schema: dict[str, Any]) -> tuple[str, tuple[str | int, ...]] | None:
    """Why ``schema`` is not a JSON Schema, and where in it (jsonschema's own check of the
    schema, which HoloDeck's check of the first reply runs first), or None."""
    import jsonschema  # only agents with a response_format pay for the import

    try:  # `run` checks the schema `check` has just checked: the same answer, by its text
        key: str | None = json.dumps(schema, sort_keys=True, default=repr)
    except (TypeError, ValueError):  # keys of several types, a loop
        key = None
    if key is not None and key in _CHECKED:
        return _CHECKED[key]
    found: tuple[str, tuple[str | int, ...]] | None = None
    try:
        jsonschema.validators.validator_for(schema).check_schema(schema)
    except jsonschema.SchemaError as exc:
        found = exc.message, tuple(exc.path)
    except RecursionError:  # within MAX_DEPTH it has room; a guard all the same
        found = "it nests too deeply for jsonschema to check it", ()
    if key is not None:
        if len(_CHECKED) >= _CHECKED_MAX:
            _CHECKED.clear()
        _CHECKED[key] = found
    return found


_CHECKED: dict[str, tuple[str, tuple[str | int, ...]] | None] = {}
_CHECKED_MAX = 64


def inline_schema(value: dict[str, Any]) -> ResolvedSchema:
    error = schema_error(value)
    if error is not None:
        message, at = error
        return ResolvedSchema(None, SchemaProblem("HL612", f"not a JSON Schema: {message}", at))
    return ResolvedSchema(value)


def file_schema(text: str, value: str, target: Path) -> ResolvedSchema:
    """The schema in ``text``, the content of the schema file ``value`` (at ``target``)."""
    try:
        parsed = loads(text)
    except TooDeep as exc:  # nothing recursed over it: the parser, jsonschema, `run`
        message = f"{described(value)} holds {exc}"
        return ResolvedSchema(None, SchemaProblem("HL611", message, (), message))
    except ValueError as exc:
        summary = f"{described(value)} is not JSON"
        return ResolvedSchema(None, SchemaProblem("HL611", f"{summary}: {exc}", (), summary))
    if not isinstance(parsed, dict):
        message = f"{described(value)} must hold a JSON object: {target}"
        return ResolvedSchema(None, SchemaProblem("HL611", message, (), message))
    error = schema_error(parsed)
    if error is not None:
        message, at = error
        where = f" (at {'/'.join(map(str, at))})" if at else ""
        summary = f"{described(value)} is not a JSON Schema"
        problem = SchemaProblem("HL612", f"{summary}: {message}{where}", (), summary)
        return ResolvedSchema(None, problem)
    return ResolvedSchema(parsed)


def resolve_schema(
    value: object, folder: Path, read: Callable[[Path], str]
) -> ResolvedSchema:
    """The schema of ``response_format: value`` for an agent file in ``folder``; ``read``
    is a reader of `named_files` (it raises NotReadable)."""
    if value is None:
        return ResolvedSchema(None)
    if isinstance(value, dict):
        return inline_schema(value)
    if not isinstance(value, str):
        return ResolvedSchema(None)  # the model's own type check reports it
    target = schema_file(value, folder)
    try:
        text = read(target)
    except NotReadable as exc:
        code = REFUSAL_CODES.get(exc.problem, MISSING_CODE)
        message = f"{described(value)} {exc.reason} (looked for {target})"
        return ResolvedSchema(None, SchemaProblem(code, message))
    return file_schema(text, value, target)
