"""Validate a set of paths; results are data, printed by an output format elsewhere.

Every file is read through `named_files` (regular files of bounded size only). A file
outside the project of the agent that reached it keeps its positions and codes, but its
lines, messages and field paths are withheld: `check` output lands in public CI logs.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from holodeck_lsp.check.changed import triage
from holodeck_lsp.check.folder_walk import yaml_files
from holodeck_lsp.check.results import CheckResult, FileResult
from holodeck_lsp.named_files import NotReadable, read_text, resolve
from holodeck_lsp.validation.codes import rule
from holodeck_lsp.validation.diagnostics import Diagnostic, Range
from holodeck_lsp.validation.file_kinds import (
    DEFAULT_PATTERNS,
    Kind,
    is_config_file,
    looks_like_suite,
    matches_patterns,
)
from holodeck_lsp.validation.named import REFUSAL_CODES
from holodeck_lsp.validation.project import is_outside, project_root, withheld
from holodeck_lsp.validation.validate import ValidationContext, validate_text
from holodeck_lsp.validation.yaml.loader import load_yaml

# What a whole file that is not read (or not validated) is reported as, by refusal.
_WHOLE_FILE_CODES = {**REFUSAL_CODES, "not-text": "HL005"}
_CONSEQUENCE = {"special": ": it is not read", "binary": ": it is not validated",
                "too-large": " (document size limit)"}


@dataclass
class CheckOptions:
    context: ValidationContext
    patterns: tuple[str, ...] = DEFAULT_PATTERNS


def _whole_file(code: str, message: str) -> Diagnostic:
    return Diagnostic(Range.of(0, 0, 0, 0), rule(code).severity, code, message)


def _refused(path: Path, exc: NotReadable) -> FileResult:
    message = f"the file {exc.reason}{_CONSEQUENCE.get(exc.problem, '')}"
    return FileResult(str(path), [_whole_file(_WHOLE_FILE_CODES[exc.problem], message)])


def _scan_candidates(
    folder: Path, patterns: tuple[str, ...], limit: int, reported: dict[str, FileResult]
) -> list[Path]:
    found = []
    for entry in yaml_files(folder):
        path = entry.path
        if entry.refused is not None:
            reported[str(path)] = _refused(path, entry.refused)
            continue
        if entry.outside is not None:
            target = resolve(path)
            message = (f"the file is a link to {target}, outside the project ({entry.outside}): "
                       "it is not read")
            reported[str(path)] = FileResult(str(path), [_whole_file("HL607", message)])
            continue
        if matches_patterns(path, patterns):
            found.append(path)
            continue
        if is_config_file(path):
            continue  # reached through the agents next to it
        try:
            loaded = load_yaml(read_text(path, limit))  # with its safety limits
        except NotReadable:
            continue
        if loaded.parsed and looks_like_suite(loaded.data, path):
            found.append(path)
    return found


def check_paths(
    paths: list[Path], options: CheckOptions, stdin: tuple[str, str] | None = None
) -> CheckResult:
    """Validate files and folders (and stdin text under a given name)."""
    result = CheckResult()
    explicit: list[tuple[Path, Kind | None]] = []
    scanned: list[Path] = []
    seen: dict[str, FileResult] = {}
    limit = options.context.max_bytes
    for path in paths:
        if path.is_dir():
            scanned.extend(_scan_candidates(path, options.patterns, limit, seen))
        elif path.exists() or path.is_symlink():
            explicit.append((path, None))
        else:
            result.unreadable.append((str(path), "no such file or folder"))
    # Agents first, so the test-case files they reference are validated through them.
    scanned.sort(key=lambda p: not matches_patterns(p, options.patterns))
    reached: set[str] = set()

    def run(path: Path, text: str, outside: Path | None = None) -> None:
        validation = validate_text(text, path, options.context)
        for file, diagnostics in validation.by_file.items():
            hidden = file in validation.outside or (outside is not None and file == str(path))
            if hidden:
                diagnostics = [withheld(d) for d in diagnostics]
            if file in seen:
                known = seen[file].diagnostics
                known.extend(d for d in diagnostics if d not in known)
                if hidden:
                    seen[file].text, seen[file].project = None, None
            else:
                own = file == str(path)
                shown = None if hidden else text if own else _text_or_none(Path(file), options)
                project = None if hidden else validation.project
                seen[file] = FileResult(file, list(diagnostics), shown, project)
        if outside is not None:
            message = (f"the file is a link to {resolve(path)}, outside the project ({outside}): "
                       "it is validated, but none of its lines is shown")
            seen[str(path)].diagnostics.insert(0, _whole_file("HL607", message))
        reached.update(validation.referenced)

    if stdin is not None:
        name, text = stdin
        run(Path(name), text)
    ordered = [p for p, _ in explicit] + [p for p in scanned if str(p) not in reached]
    for path in ordered:
        if str(path) in seen and path in scanned:
            continue
        # `--diff`: the text its fixes would give, in place of the file.
        overlaid = options.context.overlay(_key(path))
        if overlaid is not None:
            text = overlaid
        else:
            try:
                text = read_text(path, limit)
            except NotReadable as exc:
                if exc.problem in _WHOLE_FILE_CODES:
                    seen[str(path)] = _refused(path, exc)
                else:
                    result.unreadable.append((str(path), _unreadable(exc)))
                continue
        if str(path) in reached and path in scanned:
            continue
        project = project_root(path, options.context.workspace_folders)
        run(path, text, project if is_outside(path, project) else None)
    result.files = list(seen.values())
    return result


def _unreadable(exc: NotReadable) -> str:
    return "no such file or folder" if exc.problem == "missing" else exc.reason


def check_changed(paths: list[Path], options: CheckOptions) -> CheckResult:
    """`--changed-files`: agents and stand-alone suites checked as named, a file an agent
    pulls in checked through that agent (its diagnostics reported), the rest skipped."""
    sorted_ = triage(paths, options.patterns, options.context.max_bytes)
    result = check_paths(sorted_.direct, options)
    reported = {_key(Path(f.file)) for f in result.files}
    validations: dict[Path, dict[Path, list[Diagnostic]]] = {}
    for changed, agents in sorted_.through.items():
        key = _key(changed)
        if key in reported:
            continue  # an agent checked as named already reported it
        diagnostics: list[Diagnostic] = []
        for agent in agents:
            if agent not in validations:
                validations[agent] = _validate_agent(agent, options)
            found = validations[agent].get(key, [])
            diagnostics.extend(d for d in found if d not in diagnostics)
        diagnostics.sort(key=Diagnostic.sort_key)
        project = project_root(changed, options.context.workspace_folders)
        shown = not is_outside(changed, project)
        text = _text_or_none(changed, options) if shown else None
        result.files.append(FileResult(str(changed), diagnostics, text, project if shown else None))
        reported.add(key)
    return result


def _key(path: Path) -> Path:
    """One name per file, however a path to it is spelled."""
    try:
        return path.resolve()
    except (OSError, ValueError, RuntimeError):
        return path


def _validate_agent(agent: Path, options: CheckOptions) -> dict[Path, list[Diagnostic]]:
    """The diagnostics of an agent's validation, by the resolved path of each file."""
    text = _text_or_none(agent, options)
    if text is None:
        return {}
    validation = validate_text(text, agent, options.context, kind="agent")
    return {
        _key(Path(file)): [withheld(d) for d in ds] if file in validation.outside else ds
        for file, ds in validation.by_file.items()
    }


def _text_or_none(path: Path, options: CheckOptions) -> str | None:
    try:
        return options.context.read(path)
    except NotReadable:
        return None

