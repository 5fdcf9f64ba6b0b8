"""`bleu`, `rouge` and `meteor`: n-gram overlap of the reply with `ground_truth`, in [0, 1].

- bleu: sacrebleu's sentence BLEU with exponential smoothing, divided by 100.
- rouge: ROUGE-L F-measure from rouge-score (no stemming).
- meteor: NLTK's METEOR (alpha 0.9, beta 3, gamma 0.5) with its exact and Porter-stem
  matching stages only. The WordNet synonym stage needs NLTK's WordNet data, which is
  downloaded at run time and so cannot be relied on; without it a synonym ("car" for
  "automobile") is not a match, so a reply that paraphrases scores lower than it would
  with WordNet. Replies that share words or stems score the same.

The libraries are the `metrics` extra; each is imported on first use.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from holodeck_lsp.install_hints import install_extra

EXTRA = install_extra("metrics")
# Which importable module each metric needs, and the distribution that provides it.
MODULES: dict[str, tuple[str, str]] = {
    "bleu": ("sacrebleu", "sacrebleu"),
    "rouge": ("rouge_score", "rouge-score"),
    "meteor": ("nltk", "nltk"),
}


class MissingLibrary(Exception):
    """The library a metric needs is not installed."""


def missing_library(metric: str) -> str | None:
    """Why `metric` cannot run here, or None when its library imports."""
    module, distribution = MODULES[metric]
    try:
        importlib.import_module(module)
    except ImportError:
        return f"metric '{metric}' needs {distribution}, which is not installed: {EXTRA}"
    return None


def _load(metric: str) -> Any:
    """The metric's library module (untyped, hence imported by name)."""
    problem = missing_library(metric)
    if problem is not None:
        raise MissingLibrary(problem)
    return importlib.import_module(MODULES[metric][0])


def _clamp(value: float) -> float:
    return min(max(float(value), 0.0), 1.0)


def bleu(response: str, ground_truth: str) -> float:
    result = _load("bleu").sentence_bleu(response, [ground_truth], smooth_method="exp")
    # Not clamped: a perfect match is 1.0000000000000004 in sacrebleu, as HoloDeck reports it.
    return float(result.score / 100.0)


def rouge(response: str, ground_truth: str) -> float:
    _load("rouge")
    scorer = importlib.import_module("rouge_score.rouge_scorer").RougeScorer(["rougeL"])
    score = scorer.score(ground_truth, response)["rougeL"]
    return _clamp(score.fmeasure)


class _NoSynonyms:
    """Stands in for WordNet: no word has synonyms, so only exact and stem matches count."""

    def synsets(self, *_args: Any, **_kwargs: Any) -> list[Any]:
        return []


def meteor(response: str, ground_truth: str) -> float:
    _load("meteor")
    score = importlib.import_module("nltk.translate.meteor_score").single_meteor_score
    # The Treebank-style word tokenizer needs no downloaded model (word_tokenize does).
    tokenize = importlib.import_module("nltk.tokenize").NLTKWordTokenizer().tokenize
    return _clamp(score(tokenize(ground_truth), tokenize(response), wordnet=_NoSynonyms()))


SCORERS: dict[str, Callable[[str, str], float]] = {"bleu": bleu, "rouge": rouge, "meteor": meteor}
