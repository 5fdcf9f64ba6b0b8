"""Embeddings kept on disk by (model, dimensions, hash of the text), so a second run
embeds nothing it has embedded before. One SQLite file; vectors as float64 bytes, so a
cached vector is exactly the one the service sent."""

from __future__ import annotations

import hashlib
import sqlite3
from array import array
from collections.abc import Sequence
from pathlib import Path

FILE_NAME = "embeddings.sqlite"


def text_key(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


class EmbeddingCache:
    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / FILE_NAME
        self._db = sqlite3.connect(self.path, check_same_thread=False)
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS vectors (model TEXT, dimensions INTEGER, "
            "text_hash BLOB, vector BLOB, PRIMARY KEY (model, dimensions, text_hash))"
        )

    def get(self, model: str, dimensions: int, texts: Sequence[str]) -> list[list[float] | None]:
        """The cached vector of each text, or None."""
        keys = [text_key(t) for t in texts]
        found: dict[bytes, list[float]] = {}
        for start in range(0, len(keys), 500):  # SQLite's limit on bound parameters
            part = keys[start : start + 500]
            marks = ",".join("?" * len(part))
            rows = self._db.execute(
                "SELECT text_hash, vector FROM vectors WHERE model = ? AND dimensions = ? "
                f"AND text_hash IN ({marks})",
                (model, dimensions, *part),
            )
            for key, blob in rows:
                found[key] = array("d", blob).tolist()
        return [found.get(k) for k in keys]

    def put(
        self, model: str, dimensions: int, texts: Sequence[str], vectors: Sequence[list[float]]
    ) -> None:
        rows = [
            (model, dimensions, text_key(t), array("d", v).tobytes())
            for t, v in zip(texts, vectors, strict=True)
        ]
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?)", rows)

    def close(self) -> None:
        self._db.close()
