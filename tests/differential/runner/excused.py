"""The documented differences from `holodeck test` (docs/runner.md, "Differences from
`holodeck test`"), as the harness excuses them: by id, on the test cases a suite marks, in
the fields the deviation touches. Anything else that differs is a failure."""

from __future__ import annotations

import re
from dataclasses import dataclass
from statistics import fmean
from typing import Any

from tests.differential.runner.compare import Difference

_VERDICT = r"(turns\[\d+\]\.)?(metric_results\b.*|passed)"


@dataclass(frozen=True)
class Deviation:
    title: str  # the heading of its entry in docs/runner.md
    fields: re.Pattern[str]  # paths within a test case's result it may change


DEVIATIONS: dict[str, Deviation] = {
    "ngram-download": Deviation("ROUGE and METEOR", re.compile(_VERDICT)),
    "enabled-false": Deviation("`enabled: false` on a standard metric", re.compile(_VERDICT)),
    "one-evaluator-per-kind": Deviation(
        "One equality and one numeric evaluator per file", re.compile(_VERDICT)
    ),
    "single-turn-grader-context": Deviation(
        "What a single-turn case's grader sees", re.compile(_VERDICT)
    ),
    "grader-score-range": Deviation("Grader scores outside [0, 1]", re.compile(_VERDICT)),
    "empty-reply": Deviation("An empty reply is graded", re.compile(_VERDICT)),
    "fuzzy-nan": Deviation(
        "`{fuzzy: nan}`",
        re.compile(r"(turns\[\d+\]\.)?(tools_matched|arg_match_details\b.*|errors\b.*|passed)"),
    ),
}
SUMMARY_DEVIATION = "Scores of 0 in the summary"


def _relative(path: str) -> str:
    return re.sub(r"^results\[\d+\]\.?", "", path)


def holodeck_summary_scores(
    results: list[dict[str, Any]],
) -> tuple[dict[str, int], dict[str, float]]:
    """`metrics_evaluated` and `average_scores` as HoloDeck computes them: scores of 0 are
    left out of both."""
    names: set[str] = set()
    scores: dict[str, list[float]] = {}
    for result in results:
        for metric in result["metric_results"]:
            names.add(metric["metric_name"])
            if metric["score"]:
                scores.setdefault(metric["metric_name"], []).append(metric["score"])
    return {n: len(scores.get(n, [])) for n in names}, {
        n: sum(v) / len(v) for n, v in scores.items()
    }


def our_summary_scores(results: list[dict[str, Any]]) -> tuple[dict[str, int], dict[str, float]]:
    scores: dict[str, list[float]] = {}
    for result in results:
        for metric in result["metric_results"]:
            scores.setdefault(metric["metric_name"], []).append(metric["score"])
    return {n: len(v) for n, v in scores.items()}, {n: fmean(v) for n, v in scores.items()}


def _counts(results: list[dict[str, Any]]) -> tuple[int, int, float]:
    passed = sum(r["passed"] for r in results)
    rate = passed / len(results) * 100.0 if results else 0.0
    return passed, len(results) - passed, rate


def summary_consistent(ours: dict[str, Any], theirs: dict[str, Any]) -> bool:
    """Each summary is what its own rule makes of its own results (a verdict that differs
    shows in the results, where it is compared)."""
    mine, holodeck = ours["summary"], theirs["summary"]
    if (mine["metrics_evaluated"], mine["average_scores"]) != our_summary_scores(ours["results"]):
        return False
    computed = holodeck_summary_scores(theirs["results"])
    if (holodeck["metrics_evaluated"], holodeck["average_scores"]) != computed:
        return False
    return all(
        (s["passed"], s["failed"], s["pass_rate"]) == _counts(r["results"])
        for s, r in ((mine, ours), (holodeck, theirs))
    )


def excuse(difference: Difference, excuses: dict[str, set[str]], summary_ok: bool) -> str | None:
    """The documented deviation that explains ``difference``, or None."""
    if difference.path.startswith("summary."):
        return SUMMARY_DEVIATION if summary_ok else None
    for key in excuses.get(difference.case or "", set()):
        deviation = DEVIATIONS[key]
        if deviation.fields.fullmatch(_relative(difference.path)):
            return deviation.title
    return None


def unexcused(
    differences: list[Difference],
    excuses: dict[str, set[str]],
    ours: dict[str, Any],
    theirs: dict[str, Any],
) -> tuple[list[Difference], dict[str, int]]:
    """(the differences no documented deviation explains, how many each deviation excused)."""
    summary_ok = summary_consistent(ours, theirs)
    left: list[Difference] = []
    used: dict[str, int] = {}
    for difference in differences:
        title = excuse(difference, excuses, summary_ok)
        if title is None:
            left.append(difference)
        else:
            used[title] = used.get(title, 0) + 1
    return left, used
