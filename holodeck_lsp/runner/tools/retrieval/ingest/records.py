"""Structured sources (a tool with `vector_field`): one record per CSV row or JSON object,
its `vector_field`s joined as the text to embed, `meta_fields` kept beside it."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from holodeck_lsp.models.tools import VectorstoreTool
from holodeck_lsp.nesting import loads
from holodeck_lsp.runner.tools.retrieval.ingest.sources import SourceError

STRUCTURED_SUFFIXES = frozenset({".csv", ".json", ".jsonl"})


@dataclass(frozen=True)
class Record:
    id: str
    text: str
    metadata: dict[str, str]


def _csv_rows(path: Path, delimiter: str | None) -> list[dict[str, Any]]:
    text = path.read_text(encoding="utf-8-sig")
    if delimiter is None:
        try:
            delimiter = csv.Sniffer().sniff(text[:4096], delimiters=",;\t|").delimiter
        except csv.Error:
            delimiter = ","
    return [dict(row) for row in csv.DictReader(text.splitlines(), delimiter=delimiter)]


def _follow(data: Any, record_path: str | None, path: Path) -> Any:
    """The list `record_path` (dotted keys, e.g. `data.items`) points at."""
    if not record_path:
        return data
    walked: list[str] = []
    for key in record_path.split("."):
        walked.append(key)
        if not isinstance(data, dict) or key not in data:
            raise SourceError(f"{path}: record_path '{record_path}': no '{'.'.join(walked)}'")
        data = data[key]
    return data


def _json_rows(path: Path, record_path: str | None) -> list[dict[str, Any]]:
    text = path.read_text(encoding="utf-8-sig")
    try:
        if path.suffix.lower() == ".jsonl":
            data: Any = [loads(line) for line in text.splitlines() if line.strip()]
        else:
            data = _follow(loads(text), record_path, path)
    except ValueError as exc:
        raise SourceError(f"{path}: not valid JSON ({exc})") from None
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise SourceError(f"{path}: expected a list of objects (set record_path to reach it)")
    return data


def _rows(path: Path, tool: VectorstoreTool) -> list[dict[str, Any]]:
    suffix = path.suffix.lower()
    if suffix not in STRUCTURED_SUFFIXES:
        raise SourceError(f"{path}: structured sources are .csv, .json or .jsonl files")
    try:
        if suffix == ".csv":
            rows = _csv_rows(path, tool.delimiter)
        else:
            rows = _json_rows(path, tool.record_path)
    except (OSError, UnicodeDecodeError) as exc:
        raise SourceError(f"{path}: cannot read ({exc})") from None
    prefix = tool.record_prefix or ""
    return [{f"{prefix}{k}": v for k, v in row.items()} for row in rows] if prefix else rows


def load_records(path: Path, tool: VectorstoreTool) -> Iterator[Record]:
    """Every record with text; the fields the tool names must exist in the first record."""
    rows = _rows(path, tool)
    fields = tool.vector_field
    vector_fields = [fields] if isinstance(fields, str) else list(fields or [])
    id_field = tool.id_field or ""
    if rows:
        present = set(rows[0])
        wanted = [id_field, *vector_fields, *(tool.meta_fields or [])]
        missing = [f for f in wanted if f not in present]
        if missing:
            raise SourceError(
                f"{path}: no field {', '.join(repr(m) for m in missing)} in the records "
                f"(they have {', '.join(sorted(present))})"
            )
    excluded = {id_field, *vector_fields}
    meta = tool.meta_fields if tool.meta_fields is not None else None
    for row in rows:
        text = tool.field_separator.join(
            str(row[f]) for f in vector_fields if row.get(f) is not None
        )
        if not text.strip():
            continue  # nothing to embed
        names = meta if meta is not None else [k for k in row if k not in excluded]
        metadata = {n: "" if row.get(n) is None else str(row[n]) for n in names}
        yield Record(str(row.get(id_field, "")), text, metadata)
