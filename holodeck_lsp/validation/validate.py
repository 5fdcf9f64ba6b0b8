"""The one validation function behind `check`, `serve` and `run`.

text + path + context -> diagnostics for that file and for the files it pulls in
(its `test_cases_file`, its project and user config).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError, create_model

from holodeck_lsp.hack_switches import hack_on
from holodeck_lsp.models.agent import Agent
from holodeck_lsp.models.claude import AGENT_DIR_CONTEXT_KEY
from holodeck_lsp.models.project_config import GlobalConfig
from holodeck_lsp.models.test_cases_file import TestCasesFile, test_cases_file_path
from holodeck_lsp.validation.collector import Collector, Origin, SourceDoc, related_at
from holodeck_lsp.validation.config_merge import (
    ConfigFile,
    execution_defaults,
    find_config,
    merge_config,
    store_references,
)
from holodeck_lsp.validation.context import ValidationContext
from holodeck_lsp.validation.diagnostics import Diagnostic, RelatedInformation, Severity
from holodeck_lsp.validation.file_kinds import Kind, kind_of_data
from holodeck_lsp.validation.lints import lint_agent, lint_test_cases
from holodeck_lsp.validation.lints.env_comments import env_in_comments
from holodeck_lsp.validation.lints.stores import unknown_stores
from holodeck_lsp.validation.named import Project, read_named
from holodeck_lsp.validation.project import project_root
from holodeck_lsp.validation.pydantic_errors import report_validation_error
from holodeck_lsp.validation.yaml.loader import LoadedYaml, load_yaml
from holodeck_lsp.validation.yaml.source_map import SourceMap, Span, YamlPath

_YAML_CODES = {
    "syntax": "HL001",
    "tab": "HL002",
    "duplicate-key": "HL003",
    "encoding": "HL005",
    "construct": "HL006",
    "limit": "HL007",
}


@dataclass
class ValidationResult:
    """Diagnostics of the validated file and of every file it pulled in, by path."""

    file: str
    kind: Kind
    by_file: dict[str, list[Diagnostic]]
    referenced: list[str] = field(default_factory=list)
    agent: Agent | None = None  # the validated model, when the file is a valid agent
    # `execution:` of the config files (project, else user), below the agent's own block.
    config_execution: dict[str, Any] = field(default_factory=dict)
    # Where the config merge put values into the agent (a tool's `database:` name replaced
    # by a config file's vector store): said with a diagnostic, or a run's error, there.
    config_origins: tuple[Origin, ...] = ()
    # The Python files its graders live in: a change there may change the diagnostics.
    grader_modules: set[Path] = field(default_factory=set)
    # The folder of its project, and the files it pulled in from outside it (HL607):
    # `check` and `run` never show their lines, messages or field paths.
    project: Path | None = None
    outside: set[str] = field(default_factory=set)

    def diagnostics(self, file: str | None = None) -> list[Diagnostic]:
        return self.by_file.get(file or self.file, [])

    @property
    def has_errors(self) -> bool:
        return any(d.severity == Severity.ERROR for ds in self.by_file.values() for d in ds)


def _doc(file: str, text: str, loaded: LoadedYaml) -> SourceDoc:
    return SourceDoc(file, text.splitlines(), loaded.data, loaded.source_map)


def _yaml_problems(doc: SourceDoc, loaded: LoadedYaml, collector: Collector) -> None:
    for problem in loaded.problems:
        related: tuple[RelatedInformation, ...] = ()
        if problem.other is not None:
            related = (related_at(doc, problem.other, "first given here"),)
        collector.emit_span(
            doc,
            problem.span,
            _YAML_CODES[problem.kind],
            problem.message,
            problem.path,
            related=related,
        )


def validate_text(
    text: str, path: Path, context: ValidationContext | None = None, kind: Kind | None = None
) -> ValidationResult:
    """Validate one file's text; never raises on any input."""
    ctx = context or ValidationContext()
    file = str(path)
    # The server's cache (a hack: yaml/incremental.py); `check` parses each file once.
    if ctx.incremental and hack_on("incremental-parse"):
        from holodeck_lsp.validation.yaml.incremental import load_yaml_incremental

        loaded = load_yaml_incremental(text, ctx.max_text)
    else:
        loaded = load_yaml(text, ctx.max_text)
    doc = _doc(file, text, loaded)
    by_file: dict[str, list[Diagnostic]] = {file: []}
    collector = Collector(loaded.data, _same_doc(doc), by_file)
    _yaml_problems(doc, loaded, collector)
    chosen = kind or kind_of_data(path, loaded.data)
    project = Project(project_root(path, ctx.workspace_folders))
    result = ValidationResult(file, chosen, by_file, project=project.root)
    if not loaded.parsed:
        return _finish(result, ctx)
    env_in_comments(doc, collector)
    if chosen == "config":
        _validate_config_doc(doc, collector)
    elif chosen == "test-cases":
        result.grader_modules = _validate_cases_doc(doc, by_file, path, ctx, project)
    else:
        _validate_agent(doc, by_file, path, ctx, result, project)
    result.outside = project.outside
    return _finish(result, ctx)


def _finish(result: ValidationResult, ctx: ValidationContext) -> ValidationResult:
    overrides = ctx.severity_overrides
    for file, diagnostics in result.by_file.items():
        adjusted = []
        for d in diagnostics:
            if d.code in overrides:
                severity = overrides[d.code]
                if severity is None:
                    continue
                d = Diagnostic(d.range, severity, d.code, d.message, d.path, d.related, d.data)
            adjusted.append(d)
        # dict.fromkeys: duplicates dropped, ties kept in the order they were found (a set
        # would order them by hash, which changes from process to process)
        result.by_file[file] = sorted(dict.fromkeys(adjusted), key=Diagnostic.sort_key)
    return result


def _not_a_mapping(doc: SourceDoc, collector: Collector, what: str) -> None:
    collector.emit_span(
        doc,
        Span(0, 0, 0, doc.line_end(0)),
        "HL004",
        f"the top level of {what} must be a mapping, not {type(doc.data).__name__}",
    )


def _validate_config_doc(doc: SourceDoc, collector: Collector) -> None:
    if doc.data is None:
        return
    if not isinstance(doc.data, dict):
        _not_a_mapping(doc, collector, "a config file")
        return
    try:
        GlobalConfig.model_validate(doc.data)
    except ValidationError as exc:
        report_validation_error(exc, GlobalConfig, doc.data, collector)


def _cases_payload(data: Any) -> tuple[Any, YamlPath]:
    if isinstance(data, dict) and "test_cases" in data:
        return data["test_cases"], ("test_cases",)
    return data, ()


def _validate_cases_doc(
    doc: SourceDoc,
    by_file: dict[str, list[Diagnostic]],
    path: Path,
    ctx: ValidationContext,
    project: Project,
) -> set[Path]:
    """Validates a standalone test-case file; returns the grader modules it names."""
    if not doc.data:
        return set()
    cases, prefix = _cases_payload(doc.data)
    logical = {"test_cases": cases}
    # Report paths as `test_cases[i]` whatever the file's own shape.
    collector = Collector(
        logical, lambda p: (doc, prefix + p[1:] if p and p[0] == "test_cases" else p), by_file
    )
    if not isinstance(cases, list):
        collector.emit_span(
            doc,
            Span(0, 0, 0, doc.line_end(0)),
            "HL602",
            "a test-case file holds a list of test cases, or a mapping with a 'test_cases:' list",
        )
        return set()
    try:
        TestCasesFile.model_validate(logical)
    except ValidationError as exc:
        report_validation_error(exc, TestCasesFile, logical, collector)
    return lint_test_cases(logical, collector, path.parent, ctx, project, tool_names=None)


def _side_file(file: Path, text: str, ctx: ValidationContext) -> tuple[SourceDoc, LoadedYaml]:
    loaded = load_yaml(text, ctx.max_text)
    return _doc(str(file), text, loaded), loaded


def _validate_agent(
    doc: SourceDoc,
    by_file: dict[str, list[Diagnostic]],
    path: Path,
    ctx: ValidationContext,
    result: ValidationResult,
    project: Project,
) -> None:
    raw = doc.data if doc.data is not None else {}
    if not isinstance(raw, dict):
        _not_a_mapping(doc, Collector(raw, _same_doc(doc), by_file), "an agent file")
        return
    logical = _copy_for_merge(raw)
    collector = Collector(logical, _same_doc(doc), by_file)
    configs = _load_configs(path.parent, ctx, collector, result, project)
    if any(c.broken for c in configs):
        for c in configs:
            if c.broken:
                collector.emit(
                    (),
                    "HL604",
                    f"{c.path.name} next to this agent has errors; HoloDeck "
                    "will not load the agent until they are fixed",
                    part="anchor",
                    related=(related_at(c.doc, Span(0, 0, 0, 0), "the config file"),),
                )
    references = store_references(logical)
    usable = [c for c in configs if not c.broken]
    origins = result.config_origins = tuple(merge_config(logical, usable))
    result.config_execution = execution_defaults(usable)
    collector = Collector(logical, _same_doc(doc), by_file, origins)
    if not any(c.broken for c in configs):
        unknown_stores(references, logical, configs, collector)
    cases_doc = _attach_test_cases_file(logical, doc, collector, path, ctx, result, project)
    if cases_doc is not None:
        cases_source, prefix = cases_doc
        collector = Collector(
            logical,
            lambda p: (cases_source, prefix + p[1:]) if p and p[0] == "test_cases" else (doc, p),
            by_file,
            origins,
        )
    # HoloDeck reads a subagent's prompt_file while it loads (from the project folder).
    context = {AGENT_DIR_CONTEXT_KEY: str(path.parent)}
    try:
        result.agent = agent_model_for(logical).model_validate(logical, context=context)
    except ValidationError as exc:
        report_validation_error(exc, Agent, logical, collector)
    result.grader_modules = lint_agent(logical, collector, path.parent, ctx, project)


_AGENT_VARIANTS: dict[frozenset[str], type[Agent]] = {}


def agent_model_for(data: dict[str, Any]) -> type[Agent]:
    """`Agent` with the sections ``data`` lacks typed `Any`.

    An absent section is never validated, so the verdict is the same; but building the
    validators of every section costs more than a pre-commit hook's whole budget, and this
    way `check` builds only those of the sections a file has.
    """
    present = frozenset(k for k in data if k in Agent.model_fields)
    model = _AGENT_VARIANTS.get(present)
    if model is None:
        absent: dict[str, Any] = {
            name: (Any, ... if info.is_required() else None)
            for name, info in Agent.model_fields.items()
            if name not in present
        }
        model = create_model("Agent", __base__=Agent, **absent)
        _AGENT_VARIANTS[present] = model
    return model


def _same_doc(doc: SourceDoc) -> Callable[[YamlPath], tuple[SourceDoc, YamlPath]]:
    return lambda path: (doc, path)


def _copy_tree(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy_tree(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_tree(v) for v in value]
    return value


def _copy_for_merge(raw: dict[str, Any]) -> dict[str, Any]:
    """A copy the config merge may change; test cases, the bulk of a file, are shared."""
    return {k: v if k == "test_cases" else _copy_tree(v) for k, v in raw.items()}


def _load_configs(
    agent_dir: Path,
    ctx: ValidationContext,
    collector: Collector,
    result: ValidationResult,
    project: Project,
) -> list[ConfigFile]:
    """The user config, then the project config: each validated in its own file."""
    out = []
    for folder in (ctx.user_config_dir, agent_dir):
        found = find_config(folder) if folder is not None else None
        if found is None:
            continue
        # The user's own config is theirs, wherever it is; the project's is the project's.
        mine = folder == agent_dir
        named = f"{found.name} next to this agent" if mine else "the user config"
        text = read_named(
            found, named, (), collector, ctx, project if mine else None, "HL604", part="anchor"
        )
        if text is None:  # HoloDeck refuses the agent when its config cannot be read
            continue
        cdoc, loaded = _side_file(found, text, ctx)
        config_collector = Collector(loaded.data, _same_doc(cdoc), {cdoc.file: []})
        _yaml_problems(cdoc, loaded, config_collector)
        if loaded.parsed:
            env_in_comments(cdoc, config_collector)
            _validate_config_doc(cdoc, config_collector)
        diagnostics = config_collector.by_file[cdoc.file]
        broken = any(d.severity == Severity.ERROR for d in diagnostics)
        collector.by_file[cdoc.file] = diagnostics
        result.referenced.append(cdoc.file)
        data = loaded.data if isinstance(loaded.data, dict) else {}
        out.append(ConfigFile(found, cdoc, data, broken))
    return out


def _attach_test_cases_file(
    logical: dict[str, Any],
    doc: SourceDoc,
    collector: Collector,
    path: Path,
    ctx: ValidationContext,
    result: ValidationResult,
    project: Project,
) -> tuple[SourceDoc, YamlPath] | None:
    ref = logical.pop("test_cases_file", None)
    if ref is None:
        return None
    where = ("test_cases_file",)
    if logical.get("test_cases") is not None:
        collector.emit(
            where, "HL109", "give either 'test_cases' or 'test_cases_file', not both", part="key"
        )
        return None
    if isinstance(ref, str) and "${" in ref:
        return None  # which file is read is known only once the variable is set
    if not isinstance(ref, str) or not ref.strip():
        collector.emit(where, "HL103", "test_cases_file must be a non-empty path")
        return None
    target = test_cases_file_path(ref, path)
    text = read_named(target, f"test_cases_file {ref!r}", where, collector, ctx, project, "HL601")
    if text is None:
        return None
    cases_doc, loaded = _side_file(target, text, ctx)
    result.referenced.append(cases_doc.file)
    collector.by_file.setdefault(cases_doc.file, [])
    cases_collector = Collector(loaded.data, _same_doc(cases_doc), collector.by_file)
    _yaml_problems(cases_doc, loaded, cases_collector)
    if not loaded.parsed:
        collector.emit(where, "HL602", f"test_cases_file {ref!r} is not valid YAML")
        return None
    env_in_comments(cases_doc, cases_collector)
    if not loaded.data:  # an empty file is an empty suite
        logical["test_cases"] = []
        return None
    cases, prefix = _cases_payload(loaded.data)
    if not isinstance(cases, list):
        collector.emit(
            where,
            "HL602",
            f"test_cases_file {ref!r} must hold a list of test "
            "cases (or a mapping with a 'test_cases:' list)",
        )
        return None
    logical["test_cases"] = cases
    return cases_doc, prefix


__all__ = [
    "SourceMap",
    "ValidationContext",
    "ValidationResult",
    "validate_text",
]
