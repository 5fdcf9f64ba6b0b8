"""What a validation may look at beyond the text itself: open buffers, configs, graders."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from holodeck_lsp.named_files import UTF8_WIDEST, NotReadable, read_text
from holodeck_lsp.validation.diagnostics import Severity
from holodeck_lsp.validation.yaml.loader import MAX_TEXT


def user_config_dir() -> Path:
    """HoloDeck's user folder, whose `config.yaml` applies to every project."""
    return Path.home() / ".holodeck"


@dataclass
class ValidationContext:
    """What a validation may look at beyond the text itself."""

    # Text of open editor buffers, by resolved path; the disk is read otherwise.
    overlay: Callable[[Path], str | None] = lambda _path: None
    user_config_dir: Path | None = field(default_factory=user_config_dir)
    search_paths: list[Path] = field(default_factory=list)
    import_graders: bool = False
    grader_timeout: float = 10.0
    severity_overrides: dict[str, Severity | None] = field(default_factory=dict)
    # Re-parse only the test cases that changed since the last call (the editor's path).
    incremental: bool = False
    # Characters a file may have to be validated in full (the editor's is lower: HL007).
    max_text: int = MAX_TEXT
    # The editor's workspace folders: a file's project is the one holding it (else its
    # repository, else its folder); files it names outside the project are HL607.
    workspace_folders: tuple[Path, ...] = ()

    @property
    def max_bytes(self) -> int:
        """Bytes a file may have to be read: past them it cannot be within ``max_text``."""
        return self.max_text * UTF8_WIDEST

    def read(self, path: Path) -> str:
        """The file's text (an open buffer's, else the disk's); raises NotReadable."""
        try:  # resolving fails too: a NUL byte or an over-long name in a referenced path
            text = self.overlay(path.resolve())
        except (OSError, ValueError, RuntimeError) as exc:  # RuntimeError: a loop of links
            raise NotReadable("unreadable", f"cannot be read ({exc})") from None
        if text is not None:
            return text
        return read_text(path, self.max_bytes)
