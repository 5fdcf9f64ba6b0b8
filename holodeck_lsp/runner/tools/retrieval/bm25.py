"""Okapi BM25 keyword ranking in memory, with the parameters HoloDeck's in-memory keyword
index uses (k1 = 1.5, b = 0.75; a term in more than half the documents gets a quarter
of the mean IDF instead of a negative one), and its tokens: lower-cased runs of ASCII
letters and digits."""

from __future__ import annotations

import math
import re
from collections import Counter

_TOKEN = re.compile(r"[a-zA-Z0-9]+")
EPSILON = 0.25


def tokenize(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


class BM25:
    def __init__(self, documents: list[str], k1: float = 1.5, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        tokenized = [tokenize(d) for d in documents]
        self._counts = [Counter(t) for t in tokenized]
        self._lengths = [len(t) for t in tokenized]
        self._average = (sum(self._lengths) / len(tokenized)) if tokenized else 0.0
        frequency: Counter[str] = Counter()
        for counts in self._counts:
            frequency.update(counts.keys())
        total = len(tokenized)
        self._idf = {
            term: math.log(total - n + 0.5) - math.log(n + 0.5) for term, n in frequency.items()
        }
        floor = EPSILON * (sum(self._idf.values()) / len(self._idf)) if self._idf else 0.0
        for term, idf in self._idf.items():
            if idf < 0:
                self._idf[term] = floor

    def scores(self, query: str) -> list[float]:
        terms = tokenize(query)
        out: list[float] = []
        for counts, length in zip(self._counts, self._lengths, strict=True):
            norm = self.k1 * (1 - self.b + self.b * length / self._average) if self._average else 0
            total = 0.0
            for term in terms:
                tf = counts.get(term, 0)
                if tf:
                    total += self._idf.get(term, 0.0) * tf * (self.k1 + 1) / (tf + norm)
            out.append(total)
        return out

    def top(self, query: str, k: int) -> list[tuple[int, float]]:
        """(document index, score) of the best `k` documents scoring above zero."""
        scored = [(i, s) for i, s in enumerate(self.scores(query)) if s > 0]
        scored.sort(key=lambda item: (-item[1], item[0]))
        return scored[:k]


def fuse(rankings: list[list[str]], weights: list[float], k: int) -> list[tuple[str, float]]:
    """Reciprocal rank fusion: each id scores the sum of weight / (k + rank) over the
    rankings (weights normalised to sum 1), divided by the best possible score."""
    total = sum(weights)
    weights = [w / total for w in weights] if total > 0 else weights
    scores: dict[str, float] = {}
    for weight, ranking in zip(weights, rankings, strict=True):
        for rank, key in enumerate(ranking, 1):
            scores[key] = scores.get(key, 0.0) + weight / (k + rank)
    best = sum(w / (k + 1) for w in weights)
    fused = sorted(scores.items(), key=lambda item: -item[1])
    return [(key, score / best) for key, score in fused] if best > 0 else fused
