"""Where a value points: a grader to its Python function, a path to its file.

Also lists the files a document depends on beyond those the validation reads (the
grader modules), so an editor can re-validate when one of them changes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from holodeck_lsp.editing.cursor import key_at, unquote
from holodeck_lsp.graders.static import default_search_path, resolve_grader
from holodeck_lsp.models.evaluation import GRADER_RE
from holodeck_lsp.validation.validate import Kind
from holodeck_lsp.validation.yaml.loader import load_yaml
from holodeck_lsp.validation.yaml.source_map import Path as YPath


@dataclass(frozen=True)
class Target:
    file: Path
    line: int  # 0-based, code points
    character: int


def _metric_lists(data: Any, kind: Kind) -> Iterator[list[Any]]:
    if not isinstance(data, (dict, list)):
        return
    if kind == "agent" and isinstance(data, dict):
        evaluations = data.get("evaluations")
        if isinstance(evaluations, dict) and isinstance(evaluations.get("metrics"), list):
            yield evaluations["metrics"]
    cases = data if isinstance(data, list) else data.get("test_cases")
    for case in cases if isinstance(cases, list) else []:
        if not isinstance(case, dict):
            continue
        if isinstance(case.get("evaluations"), list):
            yield case["evaluations"]
        turns = case.get("turns")
        for turn in turns if isinstance(turns, list) else []:
            if isinstance(turn, dict) and isinstance(turn.get("evaluations"), list):
                yield turn["evaluations"]


def grader_specs(data: Any, kind: Kind) -> list[str]:
    """Every well-formed `grader:` of the document's metrics."""
    specs: list[str] = []
    for metrics in _metric_lists(data, kind):
        for metric in metrics:
            grader = metric.get("grader") if isinstance(metric, dict) else None
            if isinstance(grader, str) and GRADER_RE.fullmatch(grader) and grader not in specs:
                specs.append(grader)
    return specs


def grader_modules(text: str, file: Path, kind: Kind, roots: list[Path]) -> list[Path]:
    """The Python files the document's graders live in (those that exist)."""
    loaded = load_yaml(text)
    if not loaded.parsed:
        return []
    search = default_search_path(file.parent, roots)
    found: list[Path] = []
    for spec in grader_specs(loaded.data, kind):
        module = resolve_grader(spec, search).module_file
        if module is not None and module not in found:
            found.append(module)
    return found


def _value_at_cursor(text: str, line: int, character: int) -> tuple[YPath, str] | None:
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


def _is_file_ref(path: YPath) -> bool:
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
        if target.is_file():
            return Target(target.resolve(), 0, 0)
    return None
