"""`bleu`, `rouge` and `meteor`: reference values of the libraries on fixed strings, and
how a suite using them runs (thresholds, turns without ground truth, a missing library)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from holodeck_lsp.runner.score.metrics.ngram_overlap import bleu, meteor, rouge
from tests.runner.helpers import ECHO, run_suite, turns, write

NLTK_EXAMPLE = (
    "It is a guide to action which ensures that the military always obeys the commands of "
    "the party",
    "It is a guide to action that ensures that the military will forever heed Party commands",
)
# (reply, ground truth) -> (bleu, rouge, meteor): sacrebleu's sentence BLEU (exp smoothing)
# / 100, rouge-score's ROUGE-L F-measure, NLTK's METEOR with exact and stem matching.
REFERENCE = [
    (("The cat sat on the mat.", "The cat is on the mat."), (0.48892302, 0.83333333, 0.84126984)),
    (NLTK_EXAMPLE, (0.41180376, 0.64705882, 0.69444444)),
    # The stem stage matches "cars" with "car".
    (
        ("The cars were parked outside.", "The car is parked outside."),
        (0.32466792, 0.6, 0.80666667),
    ),
    # No synonym stage: "automobile" does not match "car" (0.996 with WordNet synonyms).
    (("The automobile is red.", "The car is red."), (0.42728701, 0.75, 0.75)),
    (("nothing alike", "completely different words"), (0.0, 0.0, 0.0)),
    (("Paris", "Paris"), (1.0, 1.0, 0.5)),
]


@pytest.mark.parametrize(("pair", "expected"), REFERENCE, ids=[p[0][0] for p in REFERENCE])
def test_reference_values(pair: tuple[str, str], expected: tuple[float, float, float]) -> None:
    reply, truth = pair
    scores = (bleu(reply, truth), rouge(reply, truth), meteor(reply, truth))
    assert scores == pytest.approx(expected, abs=1e-8)


def test_meteor_matches_nltks_documented_example() -> None:
    # NLTK documents 0.6944 for this pair (with WordNet); it needs no synonym.
    assert round(meteor(*NLTK_EXAMPLE), 4) == 0.6944


SUITE = """
name: overlap
model: {provider: openai, name: unused}
instructions: {inline: unused}
test_cases:
  - name: overlap
    evaluations:
      - {metric: bleu, threshold: 0.4}
      - {metric: rouge, threshold: 0.9}
      - {metric: meteor}
    turns:
      - input: The cat sat on the mat.
        ground_truth: The cat is on the mat.
      - input: no ground truth, no overlap metric
  - name: json field
    input: '{"answer": "The car is red."}'
    ground_truth: The car is red.
    evaluations:
      - {metric: bleu, threshold: 0.99, response_path: answer}
"""


def test_a_suite_with_overlap_metrics(tmp_path: Path) -> None:
    agent = write(tmp_path, {"agent.yaml": SUITE, "echo.py": ECHO})
    code, report, err = run_suite(agent, "--agent", "echo:factory")
    assert code == 1, err
    first, second = turns(report)
    assert [
        (m["metric_name"], round(m["score"], 6), m["threshold"], m["passed"], m["scale"])
        for m in first["metric_results"]
    ] == [
        ("bleu", 0.488923, 0.4, True, "0-1"),
        ("rouge", 0.833333, 0.9, False, "0-1"),
        ("meteor", 0.84127, None, True, "0-1"),  # no threshold: reported, never failed
    ]
    assert second["metric_results"] == []
    single = report["results"][1]["metric_results"]
    # sacrebleu's perfect score is 1.0000000000000004, reported unclamped as HoloDeck does.
    assert [(m["score"], m["passed"], m["error"]) for m in single] == [
        (pytest.approx(1.0, abs=1e-12), True, None)
    ]


def test_a_missing_library_stops_the_run_naming_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "sacrebleu", None)  # as if it were not installed
    agent = write(tmp_path, {"agent.yaml": SUITE, "echo.py": ECHO})
    code, report, err = run_suite(agent, "--agent", "echo:factory")
    assert (code, report) == (2, {})
    # After the warnings about rouge and meteor, which `holodeck test` scores otherwise.
    assert err.splitlines()[-1] == (
        "error: metric 'bleu' needs sacrebleu, which is not installed: "
        "pip install -e '.[metrics]' in a clone of holodeck-lsp "
        "(once it is on PyPI: pip install 'holodeck-lsp[metrics]')"
    )
