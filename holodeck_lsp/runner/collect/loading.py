"""From an agent file to a runnable suite, or to the configuration errors that stop it.

As HoloDeck does: `${VAR}` is substituted in the raw text first (an unset variable is a
configuration error), then the file is validated, then graders are really imported. A run
that needs no secret (`--replay`: no service is called) leaves an unset reference in a
secret field as written.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from holodeck_lsp.models.agent import Agent
from holodeck_lsp.models.evaluation import CodeMetric
from holodeck_lsp.models.execution import ExecutionConfig
from holodeck_lsp.named_files import NotReadable, read_text
from holodeck_lsp.runner.collect.envsubst import (
    UnsetVariable,
    outside_secret_fields,
    substitute,
)
from holodeck_lsp.runner.services.user_imports import ImportFailure, import_callable
from holodeck_lsp.validation.codes import rule
from holodeck_lsp.validation.context import user_config_dir
from holodeck_lsp.validation.diagnostics import Diagnostic, Range, Severity
from holodeck_lsp.validation.project import withheld
from holodeck_lsp.validation.validate import ValidationContext, validate_text
from holodeck_lsp.validation.yaml.loader import load_yaml


@dataclass
class ConfigError(Exception):
    """The suite cannot run. ``lines`` are printed; ``diagnostics`` go through the check
    text reporter, by file, with the file's text for excerpts."""

    lines: list[str] = field(default_factory=list)
    diagnostics: dict[str, tuple[list[Diagnostic], str | None]] = field(default_factory=dict)


# HoloDeck loads these, so `check` warns; `holodeck test` then fails before its first
# reply, and so does `run`: here they are errors.
STOP_THE_RUN = frozenset({"HL610", "HL611", "HL612"})


def _as_run_sees_them(by_file: dict[str, list[Diagnostic]]) -> dict[str, list[Diagnostic]]:
    return {
        file: [
            dataclasses.replace(d, severity=Severity.ERROR) if d.code in STOP_THE_RUN else d
            for d in ds
        ]
        for file, ds in by_file.items()
    }


@dataclass
class LoadedSuite:
    path: Path
    agent: Agent
    graders: dict[str, Callable[..., Any]]
    # The agent's `execution:` over the config files' (project, then user), as HoloDeck
    # resolves it; the command line and the environment come on top (see `command.py`).
    execution: ExecutionConfig = field(default_factory=ExecutionConfig)
    # Tool name -> where its `database:` came from, when a config file's vector store
    # replaced the name the agent wrote ("the database is vector store 'kb' of config.yaml").
    database_origins: dict[str, str] = field(default_factory=dict)
    # The validation's warnings by file, as `check` shows them (file text for excerpts).
    warnings: dict[str, tuple[list[Diagnostic], str | None]] = field(default_factory=dict)

    @property
    def folder(self) -> Path:
        return self.path.parent


class _EnvFiles:
    """Reads files with `${VAR}` substituted, noting every unset variable (HL605), but
    those of secret fields when the run needs no secret."""

    def __init__(self, env: Mapping[str, str], limit: int, secrets_needed: bool) -> None:
        self.env = env
        self.limit = limit  # bytes a file may have
        self.secrets_needed = secrets_needed
        self.raw: dict[str, str] = {}
        self.unset: dict[str, list[Diagnostic]] = {}

    def text(self, path: Path, raw: str) -> str:
        self.raw[str(path)] = raw
        text, unset = substitute(raw, self.env)
        if not self.secrets_needed:
            unset = outside_secret_fields(raw, unset)
        if unset:
            self.unset[str(path)] = [_unset_variable(u) for u in unset]
        return text

    def overlay(self, path: Path) -> str | None:
        try:
            raw = read_text(path, self.limit)
        except NotReadable:
            return None  # the validation reads it again, and says why it cannot
        return self.text(path, raw)


def _unset_variable(unset: UnsetVariable) -> Diagnostic:
    line, column = unset.line - 1, unset.column - 1
    return Diagnostic(
        Range.of(line, column, line, column + len(f"${{{unset.name}}}")),
        rule("HL605").severity,
        "HL605",
        f"environment variable {unset.name} is not set",
    )


def _metric_sites(agent: Agent) -> Iterator[tuple[str, Any]]:
    if agent.evaluations is not None:
        for i, m in enumerate(agent.evaluations.metrics):
            yield f"evaluations.metrics[{i}]", m
    for c, case in enumerate(agent.test_cases or []):
        for i, m in enumerate(case.evaluations or []):
            yield f"test_cases[{c}].evaluations[{i}]", m
        for t, turn in enumerate(case.turns or []):
            for i, m in enumerate(turn.evaluations or []):
                yield f"test_cases[{c}].turns[{t}].evaluations[{i}]", m


def import_graders(agent: Agent, path: Path) -> dict[str, Callable[..., Any]]:
    """Every code grader, imported for real; all failures are reported at once."""
    graders: dict[str, Callable[..., Any]] = {}
    problems: list[str] = []
    for where, metric in _metric_sites(agent):
        if not isinstance(metric, CodeMetric) or metric.grader in graders:
            continue
        try:
            graders[metric.grader] = import_callable(metric.grader, path.parent)
        except ImportFailure as exc:
            problems.append(f"{path}: error: grader '{metric.grader}' ({where}.grader): {exc}")
    if problems:
        raise ConfigError(sorted(set(problems), key=problems.index))
    return graders


def load_suite(
    path: Path,
    env: Mapping[str, str] | None = None,
    user_config: bool = True,
    secrets_needed: bool = True,
    import_code: bool = True,
) -> LoadedSuite:
    """Substitute, validate and import; raises `ConfigError` for anything that stops a run.
    ``secrets_needed=False`` (a replay) spares unset variables in secret fields;
    ``import_code=False`` (`merge` keeping a sharded run) imports no grader."""
    context = ValidationContext(
        user_config_dir=user_config_dir() if user_config else None,
        search_paths=[path.parent, Path.cwd()],  # as `check` resolves graders
    )
    try:
        raw = read_text(path, context.max_bytes)
    except NotReadable as exc:
        why = "does not exist" if exc.problem == "missing" else exc.reason
        raise ConfigError([f"{path}: error: cannot read the agent file: it {why}"]) from None
    files = _EnvFiles(os.environ if env is None else env, context.max_bytes, secrets_needed)
    context.overlay = files.overlay
    text = files.text(path, raw)
    result = validate_text(text, path, context, kind="agent")

    def shown(file: str, ds: list[Diagnostic]) -> tuple[list[Diagnostic], str | None]:
        """Excerpts show the file as written, never substituted values (secrets), and
        nothing of a file outside the project."""
        if file in result.outside:
            return [withheld(d) for d in ds], None
        return ds, files.raw.get(file) or files.raw.get(str(Path(file).resolve()))

    if files.unset:
        raise ConfigError([], {f: shown(f, ds) for f, ds in files.unset.items()})
    by_file = _as_run_sees_them(result.by_file)
    stops = any(d.severity == Severity.ERROR for ds in by_file.values() for d in ds)
    if stops or result.agent is None:
        shown_files = {file: shown(file, ds) for file, ds in by_file.items() if ds}
        lines = [] if shown_files else [f"{path}: error: not an agent file"]
        raise ConfigError(lines, shown_files)
    graders = import_graders(result.agent, path) if import_code else {}
    execution = _execution(result.agent, result.config_execution)
    tools = result.agent.tools or []
    origins = {
        tools[o.at[1]].name: o.note
        for o in result.config_origins
        if o.at[:1] == ("tools",) and isinstance(o.at[1], int) and o.at[1] < len(tools)
    }
    warned = {
        file: shown(file, [d for d in ds if d.severity == Severity.WARNING])
        for file, ds in by_file.items()
        if any(d.severity == Severity.WARNING for d in ds)
    }
    return LoadedSuite(path, result.agent, graders, execution, origins, warned)


def _execution(agent: Agent, from_configs: dict[str, Any]) -> ExecutionConfig:
    own = agent.execution.model_dump(exclude_none=True) if agent.execution else {}
    return ExecutionConfig.model_validate({**from_configs, **own})


def tool_line(path: Path, name: str) -> int | None:
    """The 1-based line of the agent file's tool called ``name`` (for messages)."""
    try:
        loaded = load_yaml(read_text(path, ValidationContext().max_bytes))
    except NotReadable:
        return None
    tools = loaded.data.get("tools") if isinstance(loaded.data, dict) else None
    for index, tool in enumerate(tools if isinstance(tools, list) else []):
        if isinstance(tool, dict) and tool.get("name") == name:
            info = loaded.source_map.get(("tools", index))
            return info.value.line + 1 if info is not None else None
    return None
