"""A tool's `source:` as the list of files to ingest, and each file as text."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from holodeck_lsp.install_hints import install_extra

SUPPORTED_SUFFIXES = frozenset({".txt", ".md", ".pdf", ".csv", ".json"})
PDF_EXTRA = install_extra("pdf")


class SourceError(Exception):
    """The source cannot be read; the message says which file and why."""


def resolve_source(source: str, agent_dir: Path) -> Path:
    """A local path, relative to the agent's folder; URIs are not fetched by this runner."""
    if source.startswith("file://"):
        source = source[len("file://") :]
    elif "://" in source:
        scheme = source.split("://", 1)[0]
        raise SourceError(
            f"source '{source}': {scheme}:// sources are not fetched by this runner "
            "(nothing is downloaded at run time); point source at a local copy"
        )
    path = Path(source)
    return path if path.is_absolute() else (agent_dir / path).resolve()


def discover(path: Path, suffixes: frozenset[str] = SUPPORTED_SUFFIXES) -> list[Path]:
    """The supported files at `path` (a file, or a folder searched recursively), sorted."""
    if path.is_file():
        return [path] if path.suffix.lower() in suffixes else []
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in suffixes)
    raise SourceError(f"source {path} does not exist")


def _csv_as_markdown(text: str) -> str:
    """A CSV file as a markdown table, header first, as HoloDeck converts it."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return ""
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    lines = ["| " + " | ".join(rows[0]) + " |", "| " + " | ".join(["---"] * width) + " |"]
    lines.extend("| " + " | ".join(r) + " |" for r in rows[1:])
    return "\n".join(lines)


def _pdf_text(path: Path) -> str:
    try:
        from pypdf import PdfReader
    except ImportError:
        raise SourceError(f"{path}: reading PDF files needs pypdf: {PDF_EXTRA}") from None
    try:
        reader = PdfReader(str(path))
        return "\n\n".join((page.extract_text() or "").strip() for page in reader.pages)
    except Exception as exc:  # pypdf raises many kinds on a damaged file
        raise SourceError(f"{path}: not a readable PDF ({type(exc).__name__}: {exc})") from None


def read_text(path: Path) -> str:
    """The file as the text to chunk: markdown, text and JSON as they are, CSV as a
    markdown table, PDF as its pages' text."""
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        return _pdf_text(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise SourceError(f"{path}: cannot read ({exc})") from None
    return _csv_as_markdown(text) if suffix == ".csv" else text

