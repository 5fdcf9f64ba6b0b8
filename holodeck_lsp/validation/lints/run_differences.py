"""What `holodeck test` accepts but does not run as written: a metric `enabled: false`
(HL507), equality/numeric flags one evaluator per file overrides (HL508), a raising
fail_on_error grader on a single-turn case (HL509), a standard metric whose model lacks
`endpoint` or `api_key` (HL510), `rouge` and `meteor` (HL513), a rated metric's threshold
or a rated metric without a judge model (HL514). See docs/runner.md, "Differences from
`holodeck test`"; `run` starts with these warnings too (`runner/collect/deviations.py`)."""

from __future__ import annotations

from typing import Any

from holodeck_lsp.models.evaluation import JUDGED_METRICS, EvaluationMetric, metric_kind
from holodeck_lsp.validation.collector import Collector, related_at
from holodeck_lsp.validation.lints.lax_values import as_read
from holodeck_lsp.validation.lints.walk import Places
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


def run_difference_rules(logical: dict[str, Any], found: Places, collector: Collector) -> None:
    """What `holodeck test` accepts but does not run as written (docs/runner.md,
    "Differences from `holodeck test`"); one pass over the metrics."""
    evaluations = logical.get("evaluations")
    default = evaluations.get("model") if isinstance(evaluations, dict) else None
    default_incomplete = isinstance(default, dict) and _lacks_endpoint_or_key(default)
    on_default: list[str] = []
    declared: list[tuple[str, YamlPath, dict[str, Any]]] = []
    last: dict[str, tuple[YamlPath, dict[str, Any]]] = {}
    fatal_at_file: list[YamlPath] = []
    for at, metric in found.metrics:
        kind = metric_kind(metric)
        if kind == "code":
            if at[0] == "evaluations" and metric.get("fail_on_error") is True:
                fatal_at_file.append(at)
            continue
        if metric.get("enabled") is False:
            collector.emit(
                (*at, "enabled"),
                "HL507",
                "`holodeck test` runs this metric anyway (it honours `enabled` on code "
                "metrics only); `holodeck-lsp run` skips it",
            )
        if kind != "standard":
            continue
        name = metric.get("metric")
        defaults = _EVALUATOR_FLAGS.get(name) if isinstance(name, str) else None
        if isinstance(name, str) and defaults is not None:
            # Most metrics set no flag: they share the defaults instead of a copy each.
            # Flags compare as HoloDeck reads them: `'0.01'` is 0.01 (HL111 says so).
            flags = (defaults if defaults.keys().isdisjoint(metric)
                     else {k: as_read(EvaluationMetric, k, metric.get(k, v))
                           for k, v in defaults.items()})
            last[name] = (at, flags)
            declared.append((name, at, flags))
        own = metric.get("model")
        if isinstance(own, dict):
            if _lacks_endpoint_or_key(own):
                collector.emit((*at, "model"), "HL510", _incomplete_message(own, [str(name)]))
        elif default_incomplete:
            on_default.append(str(name))
        judge = own if isinstance(own, dict) else default
        _graded_elsewise(name, metric, at, judge, collector)
    for name, at, flags in declared:
        _one_evaluator_per_file(name, at, flags, last[name], collector)
    _single_turn_fail_on_error(found, fatal_at_file, collector)
    if isinstance(default, dict) and on_default:
        collector.emit(("evaluations", "model"), "HL510", _incomplete_message(default, on_default))


_NGRAM_ELSEWISE = {
    "rouge": "`holodeck test` scores rouge 0.0 on every turn (it reads the score under "
    "`rouge`, which its evaluator returns as rouge1, rouge2 and rougeL), and loads it from "
    "the Hugging Face Hub at run time; `holodeck-lsp run` computes it here",
    "meteor": "`holodeck test` loads meteor from the Hugging Face Hub at run time and fails "
    "it offline; `holodeck-lsp run` computes it here",
}


def _graded_elsewise(
    name: Any, metric: dict[str, Any], at: YamlPath, judge: Any, collector: Collector
) -> None:
    """HL513 and HL514: a metric `holodeck test` scores otherwise, whatever the reply."""
    if name in _NGRAM_ELSEWISE:
        collector.emit((*at, "metric"), "HL513", _NGRAM_ELSEWISE[name])
    if name not in JUDGED_METRICS:
        return
    if not isinstance(judge, dict):
        collector.emit(
            (*at, "metric"),
            "HL514",
            f"`holodeck test` does not run {name} without a judge model (`model:` here or "
            "`evaluations.model`); `holodeck-lsp run` judges it with the agent's model",
        )
    elif metric.get("threshold") is not None and not _lacks_endpoint_or_key(judge):
        collector.emit(
            (*at, "threshold"),
            "HL514",
            f"`holodeck test` compares this threshold with the judge's 1-5 rating of {name} "
            "(a threshold up to 1 passes every rating); `holodeck-lsp run` compares it with "
            "the rating on the metric's scale (4 of 5 is 0.8)",
        )


def _one_evaluator_per_file(
    name: str,
    at: YamlPath,
    flags: dict[str, Any],
    effective_metric: tuple[YamlPath, dict[str, Any]],
    collector: Collector,
) -> None:
    effective_at, effective = effective_metric
    if flags == effective:
        return
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


def _single_turn_fail_on_error(
    found: Places, fatal_at_file: list[YamlPath], collector: Collector
) -> None:
    single = [(p, c) for p, c in found.cases if not isinstance(c.get("turns"), list)]
    message = (
        "a grader with fail_on_error that raises on a single-turn test case stops the whole "
        "`holodeck test` run, with no report; give the case `turns:` to stop only that case"
    )
    for path, case in single:
        evaluations = case.get("evaluations")
        for j, metric in enumerate(evaluations if isinstance(evaluations, list) else []):
            if isinstance(metric, dict) and _fatal(metric):
                collector.emit((*path, "evaluations", j, "fail_on_error"), "HL509", message)
    if fatal_at_file and any(not case.get("evaluations") for _, case in single):
        for at in fatal_at_file:
            collector.emit((*at, "fail_on_error"), "HL509", message)


def _fatal(metric: dict[str, Any]) -> bool:
    return metric_kind(metric) == "code" and metric.get("fail_on_error") is True


def _lacks_endpoint_or_key(model: dict[str, Any]) -> bool:
    return not model.get("endpoint") or not model.get("api_key")


def _incomplete_message(model: dict[str, Any], names: list[str]) -> str:
    missing = " and ".join(f"`{k}`" for k in ("endpoint", "api_key") if not model.get(k))
    metrics_named = ", ".join(dict.fromkeys(names))
    return (
        f"`holodeck test` refuses to start (exit 2) when the model of a standard metric "
        f"({metrics_named}) has no {missing}; give that model both `endpoint` and "
        "`api_key` to run the file there"
    )
