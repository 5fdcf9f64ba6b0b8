"""The `holodeck` settings object (initializationOptions and workspace/configuration).

Shape: {"files": {"include": [glob, ...]}, "graders": {"import": "never" | "trusted"},
"workspaceTrusted": bool, "severity": {"HL401": "error" | "warning" | "information" |
"hint" | "off"}, "run": {"replay": path, "baseline": path}, "validation": {"timeLimit":
seconds}}. Each part that is missing keeps its default; each part that is invalid falls
back to its default and yields a message for the log. Other keys belong to the editor
extension (it shares the section) and are ignored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from holodeck_lsp.nesting import TooDeep, check_depth
from holodeck_lsp.validation.codes import (
    SEVERITY_LEVELS,
    UnknownCode,
    UnknownLevel,
    severity_override,
)
from holodeck_lsp.validation.diagnostics import Severity
from holodeck_lsp.validation.file_kinds import DEFAULT_PATTERNS

DEFAULT_INCLUDE = tuple(f"**/{pattern}" for pattern in DEFAULT_PATTERNS)
ImportPolicy = Literal["never", "trusted"]
# `validation.timeLimit`: seconds one validation may take before it is abandoned (HL801).
# The real corpus's largest file validates in about 0.2 s and the 1,000-case suite in
# under 1 s on a busy 2-core machine: 10 s leaves them a tenfold margin, and is as long as
# anyone waits for a keystroke's diagnostics. The bounds keep a workspace's settings from
# turning the limit off.
TIME_LIMIT = 10.0
TIME_LIMIT_RANGE = (0.1, 300.0)


@dataclass(frozen=True)
class Settings:
    include: tuple[str, ...] = DEFAULT_INCLUDE
    grader_import: ImportPolicy = "never"
    workspace_trusted: bool = False
    severity: dict[str, Severity | None] = field(default_factory=dict)
    run_replay: str | None = None  # `run.replay`: the recording "Run case" replays
    run_baseline: str | None = None  # `run.baseline`: the report "Run case" compares with
    time_limit: float = TIME_LIMIT  # `validation.timeLimit`, in seconds

    @property
    def import_graders(self) -> bool:
        """Graders are imported only when allowed and the workspace is trusted."""
        return self.grader_import == "trusted" and self.workspace_trusted


def _include(raw: Any, problems: list[str]) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(p, str) and p for p in raw):
        problems.append(f"files.include must be a list of glob patterns, got {raw!r}")
        return DEFAULT_INCLUDE
    return tuple(raw)


def _severity(raw: Any, problems: list[str]) -> dict[str, Severity | None]:
    if not isinstance(raw, dict):
        problems.append(f"severity must map rule codes to levels, got {raw!r}")
        return {}
    out: dict[str, Severity | None] = {}
    for code, level in raw.items():
        try:
            key, severity = severity_override(str(code), level)
        except UnknownCode:
            problems.append(f"severity: unknown rule code {code!r} ignored")
        except UnknownLevel:
            levels = ", ".join(sorted(SEVERITY_LEVELS))
            problems.append(f"severity: {code} must be one of {levels}, got {level!r}")
        else:
            out[key] = severity
    return out


def parse_settings(raw: Any, base: Settings | None = None) -> tuple[Settings, list[str]]:
    """Settings from a client's object over ``base``, and what was wrong with it."""
    settings = base or Settings()
    problems: list[str] = []
    if raw is None:
        return settings, problems
    if isinstance(raw, dict) and set(raw) == {"holodeck"}:
        raw = raw["holodeck"]  # the object wrapped in its section name
    try:
        check_depth(raw)
    except TooDeep as exc:  # before any part of it is read, or shown in a message
        return settings, [f"the settings hold {exc}: all ignored"]
    if not isinstance(raw, dict):
        return settings, [f"settings must be an object, got {raw!r}"]
    include, grader_import = settings.include, settings.grader_import
    trusted, severity = settings.workspace_trusted, settings.severity
    if "files" in raw:
        files = raw["files"]
        if isinstance(files, dict) and "include" in files:
            include = _include(files["include"], problems)
        elif not isinstance(files, dict):
            problems.append(f"files must be an object, got {files!r}")
            include = DEFAULT_INCLUDE
    if "graders" in raw:
        graders = raw["graders"]
        policy = graders.get("import") if isinstance(graders, dict) else graders
        if policy in ("never", "trusted"):
            grader_import = policy
        else:
            problems.append(f"graders.import must be 'never' or 'trusted', got {policy!r}")
            grader_import = "never"
    if "workspaceTrusted" in raw:
        if isinstance(raw["workspaceTrusted"], bool):
            trusted = raw["workspaceTrusted"]
        else:
            problems.append(
                f"workspaceTrusted must be true or false, got {raw['workspaceTrusted']!r}"
            )
            trusted = False
    if "severity" in raw:
        severity = _severity(raw["severity"], problems)
    replay, baseline = settings.run_replay, settings.run_baseline
    if "run" in raw:
        run = raw["run"] if isinstance(raw["run"], dict) else {}
        replay, baseline = _path(run, "replay", problems), _path(run, "baseline", problems)
    time_limit = settings.time_limit
    if "validation" in raw:
        time_limit = _time_limit(raw["validation"], problems)
    # Other keys (`server`, `trace`, ...) are the client's own settings of the same section.
    return Settings(include, grader_import, trusted, severity, replay, baseline,
                    time_limit), problems


def _time_limit(validation: Any, problems: list[str]) -> float:
    """`validation.timeLimit`: seconds within TIME_LIMIT_RANGE, else the default."""
    if not isinstance(validation, dict):
        problems.append(f"validation must be an object, got {validation!r}")
        return TIME_LIMIT
    value = validation.get("timeLimit", TIME_LIMIT)
    low, high = TIME_LIMIT_RANGE
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        problems.append(f"validation.timeLimit must be a number of seconds from {low:g} to "
                        f"{high:g}, got {value!r}")
        return TIME_LIMIT
    return float(value)


def _path(run: dict[str, Any], key: str, problems: list[str]) -> str | None:
    """`run.replay` or `run.baseline`: a file path, or nothing (none, or empty)."""
    value = run.get(key)
    if value is not None and not isinstance(value, str):
        problems.append(f"run.{key} must be a file path, got {value!r}")
        return None
    return value or None
