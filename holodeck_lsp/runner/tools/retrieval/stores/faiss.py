"""FAISS: an exact inner-product index over unit vectors (cosine similarity), built in
process; with `path`, the index is also written there after ingestion."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from holodeck_lsp.runner.services.user_threads import in_thread
from holodeck_lsp.runner.tools.retrieval.stores.store_interface import (
    Chunk,
    Hit,
    similarity,
    store_error,
    unit,
)


class FaissStore:
    provider = "faiss"

    def __init__(self, path: Path | None) -> None:
        self._path = path
        self._index: Any = None
        self._chunks: list[Chunk] = []
        self._file: Path | None = None

    async def open(self, collection: str, dimensions: int) -> None:
        import faiss

        self._index = faiss.IndexFlatIP(dimensions)
        self._chunks = []
        self._file = None if self._path is None else self._path / f"{collection}.faiss"

    def _add(self, vectors: Sequence[Sequence[float]]) -> None:
        import faiss
        import numpy

        self._index.add(numpy.asarray([unit(v) for v in vectors], dtype="float32"))
        if self._file is not None:
            self._file.parent.mkdir(parents=True, exist_ok=True)
            faiss.write_index(self._index, str(self._file))

    async def add(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> None:
        try:
            await in_thread(self._add, vectors)
        except Exception as exc:
            raise store_error("faiss", exc) from None
        self._chunks.extend(chunks)

    async def search(self, vector: Sequence[float], top_k: int) -> list[Hit]:
        import numpy

        if not self._chunks:
            return []
        query = numpy.asarray([unit(vector)], dtype="float32")
        scores, ids = self._index.search(query, min(top_k, len(self._chunks)))
        return [
            Hit(self._chunks[int(i)], similarity(float(s)))
            for s, i in zip(scores[0], ids[0], strict=True)
            if i >= 0
        ]

    async def close(self) -> None:
        self._index, self._chunks = None, []
