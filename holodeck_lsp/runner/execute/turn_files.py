"""Files of a turn, folded into that turn's message.

Text and CSV files are inlined; other kinds are referenced by path or URL (converting
PDFs, Office documents and images is not done by this runner yet).
"""

from __future__ import annotations

import time
from pathlib import Path

from holodeck_lsp.models.test_case import FileInput
from holodeck_lsp.models.test_result import ProcessedFileInput
from holodeck_lsp.named_files import MAX_NAMED_BYTES, NotReadable, read_text

INLINED_TYPES = frozenset({"text", "csv"})


def _process(file: FileInput, base: Path) -> ProcessedFileInput:
    start = time.perf_counter()
    where = file.path or file.url or ""
    content, error = "", None
    if file.type in INLINED_TYPES and file.path:
        try:
            content = read_text(base / file.path, MAX_NAMED_BYTES)
        except NotReadable as exc:
            error = f"{file.path} {exc.reason}"
    else:
        error = f"{file.type} files are referenced, not converted, by this runner"
    return ProcessedFileInput(
        original=file,
        markdown_content=content,
        processing_time_ms=int((time.perf_counter() - start) * 1000),
        error=error,
        metadata={"source": where},
    )


def _block(processed: ProcessedFileInput) -> str:
    file = processed.original
    title = f"File: {file.path or file.url} ({file.type})"
    if file.description:
        title += f" - {file.description}"
    if processed.markdown_content:
        return f"{title}\n\n{processed.markdown_content.rstrip()}"
    return title


def with_files(
    message: str, files: list[FileInput] | None, base: Path
) -> tuple[str, list[ProcessedFileInput]]:
    """The message with its files appended, and the processed files for the report."""
    if not files:
        return message, []
    processed = [_process(f, base) for f in files]
    blocks = "\n\n".join(_block(p) for p in processed)
    return f"{message}\n\n{blocks}", processed
