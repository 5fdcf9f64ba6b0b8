"""What a check found, as data: shared by `check`'s output formats and `run`'s
configuration errors (which print through the same text format)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from holodeck_lsp.validation.diagnostics import Diagnostic, Severity


@dataclass
class FileResult:
    file: str
    diagnostics: list[Diagnostic]
    # For source excerpts and `--fix`; None for a file outside the project, or not text.
    text: str | None = None
    # The project the file was validated in: `--fix` writes only inside it.
    project: Path | None = None


@dataclass
class CheckResult:
    files: list[FileResult] = field(default_factory=list)
    unreadable: list[tuple[str, str]] = field(default_factory=list)

    @property
    def error_count(self) -> int:
        return sum(d.severity == Severity.ERROR for f in self.files for d in f.diagnostics)
