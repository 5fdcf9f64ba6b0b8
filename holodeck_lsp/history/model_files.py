"""Reading a JSON file anyone can edit or swap (a kept run, a report) into its model: read
as a named file (a regular file, size-bounded), parsed by the model, and anything else is
one sentence naming the file, never a crash (a document nested past the parser's depth
included)."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from holodeck_lsp.named_files import NotReadable, read_bytes
from holodeck_lsp.validation.yaml.path_text import format_path

M = TypeVar("M", bound=BaseModel)


def read_file_bytes(path: Path, max_bytes: int, error: type[Exception]) -> bytes:
    """The bytes of ``path``; raises ``error`` saying why it cannot be read."""
    try:
        return read_bytes(path, max_bytes)
    except NotReadable as exc:
        why = "does not exist" if exc.problem == "missing" else exc.reason
        raise error(f"cannot read {path}: it {why}") from None


def parse_model(model: type[M], data: bytes, path: Path, what: str, error: type[Exception]) -> M:
    """``data`` (read from ``path``) as ``model``; raises ``error`` naming the file and the
    first problem (``what``: the kind of document it is not)."""
    try:
        return model.model_validate_json(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = format_path(first["loc"]) or "the document"
        raise error(f"{path} is not {what}: {where}: {first['msg']}") from None
    except RecursionError:
        raise error(f"{path} is nested too deeply to be read") from None
