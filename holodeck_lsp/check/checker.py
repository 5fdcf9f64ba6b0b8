"""Validate a set of paths; results are data, printed by an output format elsewhere."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from holodeck_lsp.check.changed import triage
from holodeck_lsp.check.files import yaml_files
from holodeck_lsp.check.results import CheckResult, FileResult
from holodeck_lsp.validation.diagnostics import Diagnostic
from holodeck_lsp.validation.documents import (
    DEFAULT_PATTERNS,
    Kind,
    is_config_file,
    looks_like_suite,
    matches_patterns,
)
from holodeck_lsp.validation.validate import ValidationContext, validate_text
from holodeck_lsp.validation.yaml.loader import load_yaml


@dataclass
class CheckOptions:
    context: ValidationContext
    patterns: tuple[str, ...] = DEFAULT_PATTERNS


def _scan_candidates(folder: Path, patterns: tuple[str, ...]) -> list[Path]:
    found = []
    for path in yaml_files(folder):
        if matches_patterns(path, patterns):
            found.append(path)
            continue
        if is_config_file(path):
            continue  # reached through the agents next to it
        try:
            loaded = load_yaml(path.read_text(encoding="utf-8"))  # with its safety limits
        except (OSError, UnicodeDecodeError):
            continue
        if loaded.parsed and looks_like_suite(loaded.data):
            found.append(path)
    return found


def check_paths(
    paths: list[Path], options: CheckOptions, stdin: tuple[str, str] | None = None
) -> CheckResult:
    """Validate files and folders (and stdin text under a given name)."""
    result = CheckResult()
    explicit: list[tuple[Path, Kind | None]] = []
    scanned: list[Path] = []
    for path in paths:
        if path.is_dir():
            scanned.extend(_scan_candidates(path, options.patterns))
        elif path.is_file():
            explicit.append((path, None))
        else:
            result.unreadable.append((str(path), "no such file or folder"))
    # Agents first, so the test-case files they reference are validated through them.
    scanned.sort(key=lambda p: not matches_patterns(p, options.patterns))
    seen: dict[str, FileResult] = {}
    reached: set[str] = set()

    def run(path: Path, text: str) -> None:
        validation = validate_text(text, path, options.context)
        for file, diagnostics in validation.by_file.items():
            if file in seen:
                known = seen[file].diagnostics
                known.extend(d for d in diagnostics if d not in known)
            else:
                side_text = text if file == str(path) else options.context.read(Path(file))
                seen[file] = FileResult(file, list(diagnostics), side_text)
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
                raw = path.read_bytes()
            except OSError as exc:
                result.unreadable.append((str(path), exc.strerror or str(exc)))
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                seen[str(path)] = FileResult(str(path), [_encoding_error(exc)], None)
                continue
        if str(path) in reached and path in scanned:
            continue
        run(path, text)
    result.files = list(seen.values())
    return result


def check_changed(paths: list[Path], options: CheckOptions) -> CheckResult:
    """`--changed-files`: agents and stand-alone suites checked as named, a file an agent
    pulls in checked through that agent (its diagnostics reported), the rest skipped."""
    sorted_ = triage(paths, options.patterns)
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
        result.files.append(FileResult(str(changed), diagnostics, options.context.read(changed)))
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
    text = options.context.read(agent)
    if text is None:
        return {}
    validation = validate_text(text, agent, options.context, kind="agent")
    return {_key(Path(file)): diagnostics for file, diagnostics in validation.by_file.items()}


def _encoding_error(exc: UnicodeDecodeError) -> Diagnostic:
    from holodeck_lsp.validation.codes import rule
    from holodeck_lsp.validation.diagnostics import Range

    return Diagnostic(
        Range.of(0, 0, 0, 0),
        rule("HL005").severity,
        "HL005",
        f"the file is not UTF-8 text (byte {exc.start}: {exc.reason})",
    )
