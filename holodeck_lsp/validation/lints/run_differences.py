"""What `holodeck test` accepts but does not run as written: a metric `enabled: false`
(HL507), equality/numeric flags one evaluator per file overrides (HL508), a raising
fail_on_error grader on a single-turn case (HL509), a standard metric whose model lacks
`endpoint` or `api_key` (HL510). See docs/runner.md, "Differences
from `holodeck test`"."""

from __future__ import annotations

from typing import Any

from holodeck_lsp.models.evaluation import metric_kind
from holodeck_lsp.validation.collector import Collector, related_at
from holodeck_lsp.validation.lints.walk import cases, metrics
from holodeck_lsp.validation.yaml.source_map import YamlPath

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


def run_difference_rules(logical: dict[str, Any], collector: Collector) -> None:
    """What `holodeck test` accepts but does not run as written (docs/runner.md,
    "Differences from `holodeck test`")."""
    last: dict[str, tuple[YamlPath, dict[str, Any]]] = {}
    declared: list[tuple[str, YamlPath, dict[str, Any]]] = []
    for at, metric in metrics(logical):
        kind = metric_kind(metric)
        if kind != "code" and metric.get("enabled") is False:
            collector.emit(
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
            doc, span = collector.span_for((*effective_at, "metric"), "value", None)
            collector.emit(
                (*at, "metric"),
                "HL508",
                f"`holodeck test` builds one {name} evaluator per file, with the flags of the "
                f"last {name} metric declared ({changed}), and grades this metric with them",
                related=(related_at(doc, span, f"the last {name} metric"),),
            )
    _single_turn_fail_on_error(logical, collector)
    _incomplete_standard_models(logical, collector)


def _single_turn_fail_on_error(logical: dict[str, Any], collector: Collector) -> None:
    single = [(p, c) for p, c in cases(logical) if not isinstance(c.get("turns"), list)]
    message = (
        "a grader with fail_on_error that raises on a single-turn test case stops the whole "
        "`holodeck test` run, with no report; give the case `turns:` to stop only that case"
    )
    for path, case in single:
        evaluations = case.get("evaluations")
        for j, metric in enumerate(evaluations if isinstance(evaluations, list) else []):
            if isinstance(metric, dict) and _fatal(metric):
                collector.emit((*path, "evaluations", j, "fail_on_error"), "HL509", message)
    if any(not case.get("evaluations") for _, case in single):
        for at, metric in metrics(logical):
            if at[0] == "evaluations" and _fatal(metric):
                collector.emit((*at, "fail_on_error"), "HL509", message)


def _fatal(metric: dict[str, Any]) -> bool:
    return metric_kind(metric) == "code" and metric.get("fail_on_error") is True


def _incomplete_standard_models(logical: dict[str, Any], collector: Collector) -> None:
    # `holodeck test` builds an Azure AI judge config for every standard metric that has a
    # model (its own, else `evaluations.model`), whatever the metric, and refuses to start
    # (exit 2) when that model lacks `endpoint` or `api_key`.
    evaluations = logical.get("evaluations")
    default = evaluations.get("model") if isinstance(evaluations, dict) else None
    on_default: list[str] = []
    for at, metric in metrics(logical):
        if metric_kind(metric) != "standard":
            continue
        own, name = metric.get("model"), str(metric.get("metric"))
        if isinstance(own, dict):
            if _lacks_endpoint_or_key(own):
                collector.emit((*at, "model"), "HL510", _incomplete_message(own, [name]))
        elif isinstance(default, dict) and _lacks_endpoint_or_key(default):
            on_default.append(name)
    if isinstance(default, dict) and on_default:
        collector.emit(("evaluations", "model"), "HL510", _incomplete_message(default, on_default))


def _lacks_endpoint_or_key(model: dict[str, Any]) -> bool:
    return not model.get("endpoint") or not model.get("api_key")


def _incomplete_message(model: dict[str, Any], names: list[str]) -> str:
    missing = " and ".join(f"`{k}`" for k in ("endpoint", "api_key") if not model.get(k))
    metrics_named = ", ".join(dict.fromkeys(names))
    return (
        f"`holodeck test` refuses to start (exit 2) when the model of a standard metric "
        f"({metrics_named}) has no {missing}; give it both to run the file there"
    )
