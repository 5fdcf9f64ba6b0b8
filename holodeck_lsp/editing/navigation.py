"""Where a value points: a grader to its Python function, a path to its file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from holodeck_lsp.editing.cursor import key_at, unquote
from holodeck_lsp.graders.static import default_search_path, resolve_grader
from holodeck_lsp.models.evaluation import GRADER_RE
from holodeck_lsp.named_files import NotReadable, regular_file
from holodeck_lsp.validation.yaml.loader import load_yaml
from holodeck_lsp.validation.yaml.source_map import YamlPath


@dataclass(frozen=True)
class Target:
    file: Path
    line: int  # 0-based, code points
    character: int


def _value_at_cursor(text: str, line: int, character: int) -> tuple[YamlPath, str] | None:
    found = key_at(text, line, character)
    if found is not None and found.part == "value":
        raw = text.split("\n")[line][found.start : found.end]
        return found.path, unquote(raw.strip())
    loaded = load_yaml(text)
    if not loaded.parsed:
        return None
    path = loaded.source_map.path_at(line, character)
    if not path:
        return None
    value: Any = loaded.data
    for part in path:
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            return None
    return (path, value) if isinstance(value, str) else None


def _is_file_ref(path: YamlPath) -> bool:
    if path == ("test_cases_file",) or path == ("instructions", "file"):
        return True
    return (
        len(path) >= 3
        and path[-1] == "path"
        and isinstance(path[-2], int)
        and (path[-3] == "files")
    )


def definition_at(
    text: str, file: Path, line: int, character: int, roots: list[Path]
) -> Target | None:
    """The place the value under the cursor refers to, when it exists."""
    found = _value_at_cursor(text, line, character)
    if found is None:
        return None
    path, value = found
    if not path or "${" in value:
        return None
    if path[-1] == "grader" and GRADER_RE.fullmatch(value):
        resolution = resolve_grader(value, default_search_path(file.parent, roots))
        if resolution.target is not None:
            t = resolution.target
            return Target(t.file, t.line, t.col)
        if resolution.module_file is not None:
            return Target(resolution.module_file, 0, 0)
        return None
    if _is_file_ref(path) and value.strip():
        target = Path(value) if Path(value).is_absolute() else file.parent / value
        try:  # a FIFO, a device or /proc/self/environ is no place to go
            resolved, _size = regular_file(target)
        except NotReadable:
            return None
        return Target(resolved, 0, 0)
    return None
