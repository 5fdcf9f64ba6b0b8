"""The interface every vector store implements, and what it holds and gives back."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from holodeck_lsp.runner.services.redaction import active
from holodeck_lsp.runner.services.service_targets import server_address


@dataclass(frozen=True)
class Chunk:
    """One stored piece of text: a chunk of a file, or a structured record."""

    id: str
    text: str
    source: str  # the file it came from
    index: int = 0  # its position in that file
    metadata: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Hit:
    chunk: Chunk
    score: float  # cosine similarity, clamped to [0, 1]


class StoreError(Exception):
    """The database cannot be reached or refused an operation."""


class VectorStore(Protocol):
    provider: str

    async def open(self, collection: str, dimensions: int) -> None:
        """Connect and make `collection` empty and ready for vectors of `dimensions`."""
        ...

    async def add(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> None: ...

    async def search(self, vector: Sequence[float], top_k: int) -> list[Hit]:
        """The `top_k` nearest chunks, most similar first."""
        ...

    async def close(self) -> None: ...


def store_error(provider: str, exc: BaseException, url: str | None = None) -> StoreError:
    """A client library's failure as a one-line store error (some put whole HTTP bodies
    in their messages), naming the server of ``url`` (its host and port) when there is one."""
    text = str(exc).strip().splitlines()
    first = active().clip(text[0], 300, "") if text else ""
    where = f"{provider} at {server_address(url)}" if url else provider
    return StoreError(f"{where}: {type(exc).__name__}: {first}".rstrip(": "))


def unit(vector: Sequence[float]) -> list[float]:
    """`vector` scaled to length 1 (a zero vector stays zero)."""
    norm = math.sqrt(math.fsum(x * x for x in vector))
    return [x / norm for x in vector] if norm else [0.0] * len(vector)


def similarity(score: float) -> float:
    return min(max(score, 0.0), 1.0)
