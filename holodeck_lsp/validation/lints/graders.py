"""Metrics: a model given to a metric that runs without one (HL506), a code metric's
threshold no score in [0, 1] can decide (HL511), and code graders resolved statically, or
imported in a child process when asked (HL502-HL505)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from holodeck_lsp.graders.isolated import import_grader
from holodeck_lsp.graders.static import default_search_path, resolve_grader
from holodeck_lsp.models.evaluation import DETERMINISTIC_METRICS, GRADER_RE, metric_kind
from holodeck_lsp.validation.collector import Collector
from holodeck_lsp.validation.context import ValidationContext
from holodeck_lsp.validation.diagnostics import Severity
from holodeck_lsp.validation.lints.walk import Place
from holodeck_lsp.validation.yaml.source_map import YamlPath

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


def metric_rules(
    metrics: list[Place],
    collector: Collector,
    base: Path,
    ctx: ValidationContext,
    standalone: bool,
) -> set[Path]:
    """Emits what is wrong with the metrics; returns the grader modules found."""
    resolved: dict[str, tuple[str | None, str]] = {}
    modules: set[Path] = set()
    search: list[Path] | None = None  # built on the first grader: most suites have none
    for at, metric in metrics:
        kind = metric_kind(metric)
        name = metric.get("metric")
        # Raw YAML: the value may be a list or mapping, which a set lookup cannot hash.
        deterministic = (
            kind == "standard" and isinstance(name, str) and name in DETERMINISTIC_METRICS
        )
        if deterministic and metric.get("model") is not None:
            collector.emit(
                (*at, "model"),
                "HL506",
                f"{metric['metric']} runs without a model; this model is ignored",
                part="key",
            )
        if kind != "code":
            continue
        _threshold_rule(at, metric.get("threshold"), collector)
        grader = metric.get("grader")
        if not isinstance(grader, str) or not GRADER_RE.fullmatch(grader):
            continue
        if grader not in resolved:
            search = search if search is not None else default_search_path(base, ctx.search_paths)
            resolved[grader] = _resolve(grader, base, search, ctx, modules)
        code, message = resolved[grader]
        if code is None:
            continue
        severity = None
        if standalone and code == "HL502":
            # Graders resolve from the agent's folder, which a lone test-case file may not share.
            severity = Severity.WARNING
            message += " (searched from this file's folder; the agent's folder may differ)"
        collector.emit((*at, "grader"), code, message, severity=severity)
    return modules


def _threshold_rule(at: YamlPath, threshold: Any, collector: Collector) -> None:
    """A grader's score is within [0, 1]: a threshold outside it decides every bare score
    the same way (a grader that returns `passed` itself is not affected)."""
    if not isinstance(threshold, (int, float)) or isinstance(threshold, bool):
        return
    if 0 <= threshold <= 1:
        return
    if threshold < 0:
        verdict = "every score reaches it: the metric always passes"
    else:  # above 1, or NaN, which no comparison meets
        verdict = "no score reaches it: the metric never passes"
    collector.emit(
        (*at, "threshold"),
        "HL511",
        f"threshold {threshold} is outside [0, 1], where a grader's score lies; {verdict} "
        "unless the grader returns `passed` itself",
    )


def _resolve(
    grader: str, base: Path, search: list[Path], ctx: ValidationContext, modules: set[Path]
) -> tuple[str | None, str]:
    static = resolve_grader(grader, search)
    if static.module_file is not None:
        modules.add(static.module_file.resolve())
    if static.status in _STATIC_STATUS_CODES:
        return _STATIC_STATUS_CODES[static.status], static.message
    if ctx.import_graders:
        outcome = import_grader(grader, [base, *ctx.search_paths], ctx.grader_timeout)
        if outcome.status in _IMPORT_STATUS_CODES:
            return _IMPORT_STATUS_CODES[outcome.status], (
                f"importing grader {grader!r} failed: {outcome.message}"
            )
    return None, ""
