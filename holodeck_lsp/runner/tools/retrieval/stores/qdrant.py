"""Qdrant: a server by URL (`connection_string`, or `url`), or local mode in a folder
(`path`, a `/path` or `file://` connection string) or in memory (`:memory:`)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from holodeck_lsp.nesting import loads
from holodeck_lsp.runner.tools.retrieval.stores.store_interface import (
    Chunk,
    Hit,
    similarity,
    store_error,
)

BATCH = 256


def client_settings(
    connection: str | None, path: Path | None, options: dict[str, Any]
) -> dict[str, Any]:
    """Keyword arguments of the Qdrant client for this configuration."""
    settings: dict[str, Any] = {}
    if options.get("api_key"):
        settings["api_key"] = str(options["api_key"])
    if connection == ":memory:":
        settings["location"] = ":memory:"
    elif connection and (connection.startswith("/") or connection.startswith("file://")):
        settings["path"] = connection.removeprefix("file://")
    elif connection:
        settings["url"] = connection
    elif options.get("url"):
        settings["url"] = str(options["url"])
    elif path is not None:
        settings["path"] = str(path)
    else:
        settings["location"] = ":memory:"
    if "url" in settings:
        settings["check_compatibility"] = False  # no extra request, no version warning
    return settings


class QdrantStore:
    provider = "qdrant"

    def __init__(self, connection: str | None, path: Path | None, options: dict[str, Any]) -> None:
        self._settings = client_settings(connection, path, options)
        self._client: Any = None
        self._collection = ""

    async def open(self, collection: str, dimensions: int) -> None:
        from qdrant_client import AsyncQdrantClient, models

        await self.close()  # opened again: one client at a time (local mode locks its folder)
        try:
            self._client = AsyncQdrantClient(**self._settings)
            if await self._client.collection_exists(collection):
                await self._client.delete_collection(collection)
            await self._client.create_collection(
                collection,
                vectors_config=models.VectorParams(
                    size=dimensions, distance=models.Distance.COSINE
                ),
            )
        except Exception as exc:
            await self.close()
            raise store_error("qdrant", exc, self._settings.get("url")) from None
        self._collection = collection

    async def add(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> None:
        from qdrant_client import models

        points = [
            models.PointStruct(
                # Qdrant ids are integers or UUIDs: a UUID derived from the chunk's id.
                id=str(uuid.uuid5(uuid.NAMESPACE_URL, c.id)),
                vector=list(v),
                payload={
                    "id": c.id,
                    "text": c.text,
                    "source": c.source,
                    "index": c.index,
                    "meta": json.dumps(c.metadata),
                },
            )
            for c, v in zip(chunks, vectors, strict=True)
        ]
        for start in range(0, len(points), BATCH):
            await self._client.upsert(self._collection, points=points[start : start + BATCH])

    async def search(self, vector: Sequence[float], top_k: int) -> list[Hit]:
        found = await self._client.query_points(
            self._collection, query=list(vector), limit=top_k, with_payload=True
        )
        hits: list[Hit] = []
        for point in found.points:
            p = point.payload or {}
            chunk = Chunk(
                str(p["id"]),
                str(p["text"]),
                str(p["source"]),
                int(p["index"]),
                loads(p["meta"]),
            )
            hits.append(Hit(chunk, similarity(float(point.score))))
        return hits

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.close()
