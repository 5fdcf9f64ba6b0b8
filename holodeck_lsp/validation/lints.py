"""Rules beyond the models: graders, other files, and what HoloDeck tolerates but the
seed forbids (warnings). They walk the logical data the models were validated on."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from holodeck_lsp.graders.isolated import import_grader
from holodeck_lsp.graders.static import default_search_path, resolve_grader
from holodeck_lsp.models.evaluation import DETERMINISTIC_METRICS, GRADER_RE, metric_kind
from holodeck_lsp.models.test_case import MATCHER_KEYS
from holodeck_lsp.validation.collector import Reporter, related_at
from holodeck_lsp.validation.diagnostics import Severity
from holodeck_lsp.validation.yaml.source_map import Path as YPath

if TYPE_CHECKING:
    from holodeck_lsp.validation.validate import ValidationContext

_INVISIBLE = re.compile(r"[\s\u200b\u200c\u200d\u2060\ufeff\u00ad]*")
_PLAIN_ARG = re.compile(r"[^.\[\]]+")
# Tool kinds whose callable names are the declared tool name.
_NAMED_TOOL_TYPES = {"function", "vectorstore", "prompt", "hierarchical_document"}
_STATIC_STATUS_CODES = {
    "module-missing": "HL502",
    "attr-missing": "HL503",
    "not-callable": "HL504",
    "syntax-error": "HL505",
}
_IMPORT_STATUS_CODES = {
    "attr-missing": "HL503",
    "not-callable": "HL504",
    "import-failed": "HL505",
    "timeout": "HL505",
}


def _cases(logical: dict[str, Any]) -> Iterator[tuple[YPath, dict[str, Any]]]:
    cases = logical.get("test_cases")
    if isinstance(cases, list):
        for i, case in enumerate(cases):
            if isinstance(case, dict):
                yield ("test_cases", i), case


def _exchanges(logical: dict[str, Any]) -> Iterator[tuple[YPath, dict[str, Any]]]:
    """Every test case and every turn: the mappings that carry input, tools and files."""
    for path, case in _cases(logical):
        yield path, case
        turns = case.get("turns")
        if isinstance(turns, list):
            for k, turn in enumerate(turns):
                if isinstance(turn, dict):
                    yield (*path, "turns", k), turn


def _metrics(logical: dict[str, Any]) -> Iterator[tuple[YPath, dict[str, Any]]]:
    evaluations = logical.get("evaluations")
    if isinstance(evaluations, dict) and isinstance(evaluations.get("metrics"), list):
        for j, metric in enumerate(evaluations["metrics"]):
            if isinstance(metric, dict):
                yield ("evaluations", "metrics", j), metric
    for path, exchange in _exchanges(logical):
        metrics = exchange.get("evaluations")
        if isinstance(metrics, list):
            for j, metric in enumerate(metrics):
                if isinstance(metric, dict):
                    yield (*path, "evaluations", j), metric


def _text_rules(path: YPath, exchange: dict[str, Any], reporter: Reporter) -> None:
    for key in ("name", "input", "ground_truth"):
        value = exchange.get(key)
        if isinstance(value, str) and value.strip() and _INVISIBLE.fullmatch(value):
            reporter.emit(
                (*path, key), "HL205", f"{key} holds only invisible characters; it reads as empty"
            )


def _tool_rules(
    path: YPath, exchange: dict[str, Any], reporter: Reporter, tool_names: list[str] | None
) -> None:
    tools = exchange.get("expected_tools")
    if not isinstance(tools, list):
        return
    for j, entry in enumerate(tools):
        at = (*path, "expected_tools", j)
        name = entry if isinstance(entry, str) else None
        if isinstance(entry, dict):
            name = entry.get("name") if isinstance(entry.get("name"), str) else None
            if isinstance(entry.get("count"), bool):
                reporter.emit(
                    (*at, "count"),
                    "HL304",
                    f"count: {str(entry['count']).lower()} is read as "
                    f"{int(entry['count'])}; write an integer >= 1",
                    data={"replace_value": 1},
                )
            args = entry.get("args")
            if isinstance(args, dict):
                for key in args:
                    _arg_key_rule((*at, "args", key), key, reporter)
        if name == "":
            reporter.emit(
                at if isinstance(entry, str) else (*at, "name"),
                "HL306",
                "an empty tool name matches every tool call",
            )
        elif (
            name
            and name.strip()
            and tool_names is not None
            and not any(name in t for t in tool_names)
        ):
            reporter.emit(
                at if isinstance(entry, str) else (*at, "name"),
                "HL307",
                f"no tool of this agent has a name containing {name!r} "
                f"(tools: {', '.join(tool_names) or 'none'})",
            )


def _arg_key_rule(at: YPath, key: Any, reporter: Reporter) -> None:
    if not isinstance(key, str):
        reporter.emit(
            at, "HL405", f"argument name {key!r} is not text; it never matches", part="key"
        )
    elif not _PLAIN_ARG.fullmatch(key) and key not in MATCHER_KEYS:
        reporter.emit(
            at,
            "HL405",
            f"argument name {key!r} has dots or brackets; matchers compare "
            "top-level arguments by plain name",
            part="key",
        )


def _exists(target: Path) -> bool:
    try:
        return target.exists()
    except OSError:  # a name longer than the file system allows, say
        return False


def _file_rules(path: YPath, exchange: dict[str, Any], reporter: Reporter, base: Path) -> None:
    files = exchange.get("files")
    if not isinstance(files, list):
        return
    for j, item in enumerate(files):
        local = item.get("path") if isinstance(item, dict) else None
        if isinstance(local, str) and local and "${" not in local:
            target = Path(local) if Path(local).is_absolute() else base / local
            if not _exists(target):
                reporter.emit(
                    (*path, "files", j, "path"),
                    "HL603",
                    f"file {local!r} not found (looked for {target})",
                )


def _metric_rules(
    logical: dict[str, Any],
    reporter: Reporter,
    base: Path,
    ctx: ValidationContext,
    standalone: bool,
) -> None:
    resolved: dict[str, tuple[str | None, str]] = {}
    search: list[Path] | None = None  # built on the first grader: most suites have none
    for at, metric in _metrics(logical):
        kind = metric_kind(metric)
        name = metric.get("metric")
        # Raw YAML: the value may be a list or mapping, which a set lookup cannot hash.
        deterministic = (
            kind == "standard" and isinstance(name, str) and name in DETERMINISTIC_METRICS
        )
        if deterministic and metric.get("model") is not None:
            reporter.emit(
                (*at, "model"),
                "HL506",
                f"{metric['metric']} runs without a model; this model is ignored",
                part="key",
            )
        grader = metric.get("grader")
        if kind != "code" or not isinstance(grader, str) or not GRADER_RE.fullmatch(grader):
            continue
        if grader not in resolved:
            search = search if search is not None else default_search_path(base, ctx.search_paths)
            resolved[grader] = _resolve(grader, base, search, ctx)
        code, message = resolved[grader]
        if code is None:
            continue
        severity = None
        if standalone and code == "HL502":
            # Graders resolve from the agent's folder, which a lone test-case file may not share.
            severity = Severity.WARNING
            message += " (searched from this file's folder; the agent's folder may differ)"
        reporter.emit((*at, "grader"), code, message, severity=severity)


# The flags of the one evaluator `holodeck test` builds per kind, with their defaults.
_EVALUATOR_FLAGS: dict[str, dict[str, Any]] = {
    "equality": {"case_insensitive": False, "strip_whitespace": False, "strip_punctuation": False},
    "numeric": {
        "absolute_tolerance": 1e-6,
        "relative_tolerance": 0.0,
        "accept_percent": False,
        "accept_thousands_separators": False,
    },
}


def _runner_rules(logical: dict[str, Any], reporter: Reporter) -> None:
    """What `holodeck test` accepts but does not run as written (docs/runner.md,
    "Differences from `holodeck test`")."""
    last: dict[str, tuple[YPath, dict[str, Any]]] = {}
    declared: list[tuple[str, YPath, dict[str, Any]]] = []
    for at, metric in _metrics(logical):
        kind = metric_kind(metric)
        if kind != "code" and metric.get("enabled") is False:
            reporter.emit(
                (*at, "enabled"),
                "HL507",
                "`holodeck test` runs this metric anyway (it honours `enabled` on code "
                "metrics only); `holodeck-lsp run` skips it",
            )
        name = metric.get("metric")
        if kind == "standard" and isinstance(name, str) and name in _EVALUATOR_FLAGS:
            defaults = _EVALUATOR_FLAGS[name]
            flags = {k: metric.get(k, v) for k, v in defaults.items()}
            last[name] = (at, flags)
            declared.append((name, at, flags))
    for name, at, flags in declared:
        effective_at, effective = last[name]
        if flags != effective:
            changed = ", ".join(
                f"{k}: {str(v).lower() if isinstance(v, bool) else v}"
                for k, v in effective.items()
                if flags[k] != v
            )
            doc, span = reporter.span_for((*effective_at, "metric"), "value", None)
            reporter.emit(
                (*at, "metric"),
                "HL508",
                f"`holodeck test` builds one {name} evaluator per file, with the flags of the "
                f"last {name} metric declared ({changed}), and grades this metric with them",
                related=(related_at(doc, span, f"the last {name} metric"),),
            )
    _single_turn_fail_on_error(logical, reporter)


def _single_turn_fail_on_error(logical: dict[str, Any], reporter: Reporter) -> None:
    single = [(p, c) for p, c in _cases(logical) if not isinstance(c.get("turns"), list)]
    message = (
        "a grader with fail_on_error that raises on a single-turn test case stops the whole "
        "`holodeck test` run, with no report; give the case `turns:` to stop only that case"
    )
    for path, case in single:
        for j, metric in enumerate(case.get("evaluations") or []):
            if isinstance(metric, dict) and _fatal(metric):
                reporter.emit((*path, "evaluations", j, "fail_on_error"), "HL509", message)
    if any(not case.get("evaluations") for _, case in single):
        for at, metric in _metrics(logical):
            if at[0] == "evaluations" and _fatal(metric):
                reporter.emit((*at, "fail_on_error"), "HL509", message)


def _fatal(metric: dict[str, Any]) -> bool:
    return metric_kind(metric) == "code" and metric.get("fail_on_error") is True


def _resolve(
    grader: str, base: Path, search: list[Path], ctx: ValidationContext
) -> tuple[str | None, str]:
    static = resolve_grader(grader, search)
    if static.status in _STATIC_STATUS_CODES:
        return _STATIC_STATUS_CODES[static.status], static.message
    if ctx.import_graders:
        outcome = import_grader(grader, [base, *ctx.search_paths], ctx.grader_timeout)
        if outcome.status in _IMPORT_STATUS_CODES:
            return _IMPORT_STATUS_CODES[outcome.status], (
                f"importing grader {grader!r} failed: {outcome.message}"
            )
    return None, ""


def declared_tool_names(logical: dict[str, Any]) -> list[str] | None:
    """Names tool calls can carry, or None when some tool's call names are unknown."""
    model = logical.get("model")
    if isinstance(model, dict) and model.get("provider") == "anthropic":
        return None  # the Claude backend brings built-in tools of its own
    tools = logical.get("tools")
    names: list[str] = []
    for tool in tools if isinstance(tools, list) else []:
        kind = tool.get("type") if isinstance(tool, dict) else None
        if not isinstance(kind, str) or kind not in _NAMED_TOOL_TYPES:  # raw YAML: maybe a dict
            return None
        if isinstance(tool.get("name"), str):
            names.append(tool["name"])
    return names


def lint_test_cases(
    logical: dict[str, Any],
    reporter: Reporter,
    base: Path,
    ctx: ValidationContext,
    tool_names: list[str] | None,
    standalone: bool = True,
) -> None:
    for path, exchange in _exchanges(logical):
        _text_rules(path, exchange, reporter)
        _tool_rules(path, exchange, reporter, tool_names)
        _file_rules(path, exchange, reporter, base)
    _metric_rules(logical, reporter, base, ctx, standalone)
    _runner_rules(logical, reporter)


def lint_agent(
    logical: dict[str, Any], reporter: Reporter, base: Path, ctx: ValidationContext
) -> None:
    lint_test_cases(logical, reporter, base, ctx, declared_tool_names(logical), standalone=False)
