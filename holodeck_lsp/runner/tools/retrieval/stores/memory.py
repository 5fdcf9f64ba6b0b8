"""The in-memory store (the default): vectors in process, exact cosine search.

With numpy installed the search is one matrix product; without it, plain Python.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import Any

from holodeck_lsp.runner.tools.retrieval.stores.store_interface import Chunk, Hit, similarity, unit


class MemoryStore:
    provider = "in-memory"

    def __init__(self) -> None:
        self._chunks: list[Chunk] = []
        self._vectors: list[list[float]] = []
        self._matrix: Any = None  # numpy array of the unit vectors, built on first search

    async def open(self, collection: str, dimensions: int) -> None:
        self._chunks, self._vectors, self._matrix = [], [], None

    async def add(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> None:
        self._chunks.extend(chunks)
        self._vectors.extend(unit(v) for v in vectors)
        self._matrix = None

    def _scores(self, query: list[float]) -> list[float]:
        try:
            import numpy
        except ImportError:
            return [sum(a * b for a, b in zip(query, v, strict=True)) for v in self._vectors]
        if self._matrix is None:
            self._matrix = numpy.asarray(self._vectors, dtype=float)
        return [float(x) for x in self._matrix @ numpy.asarray(query, dtype=float)]

    async def search(self, vector: Sequence[float], top_k: int) -> list[Hit]:
        if not self._chunks:
            return []
        scores = self._scores(unit(vector))
        # Ties keep insertion order: the same query always ranks the same way.
        best = heapq.nsmallest(top_k, range(len(scores)), key=lambda i: (-scores[i], i))
        return [Hit(self._chunks[i], similarity(scores[i])) for i in best]

    async def close(self) -> None:
        self._chunks, self._vectors, self._matrix = [], [], None
