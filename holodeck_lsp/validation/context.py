"""What a validation may look at beyond the text itself: open buffers, configs, graders."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from holodeck_lsp.validation.diagnostics import Severity
from holodeck_lsp.validation.yaml.loader import MAX_TEXT


@dataclass
class ValidationContext:
    """What a validation may look at beyond the text itself."""

    # Text of open editor buffers, by resolved path; the disk is read otherwise.
    overlay: Callable[[Path], str | None] = lambda _path: None
    user_config_dir: Path | None = field(default_factory=lambda: Path.home() / ".holodeck")
    search_paths: list[Path] = field(default_factory=list)
    import_graders: bool = False
    grader_timeout: float = 10.0
    severity_overrides: dict[str, Severity | None] = field(default_factory=dict)
    # Re-parse only the test cases that changed since the last call (the editor's path).
    incremental: bool = False
    # Characters a file may have to be validated in full (the editor's is lower: HL007).
    max_text: int = MAX_TEXT

    def read(self, path: Path) -> str | None:
        """The file's text, or None when it cannot be read."""
        try:  # resolving fails too: a NUL byte or an over-long name in a referenced path
            text = self.overlay(path.resolve())
            if text is not None:
                return text
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError, ValueError):
            return None
