"""ChromaDB: a server through its HTTP client (`connection_string`), a folder through the
embedded persistent client (`path`, or `persist_directory` as HoloDeck calls it), else
an ephemeral in-process client."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from holodeck_lsp.nesting import loads
from holodeck_lsp.runner.services.user_threads import in_thread
from holodeck_lsp.runner.tools.retrieval.stores.store_interface import (
    Chunk,
    Hit,
    StoreError,
    similarity,
    store_error,
)

BATCH = 500


def _client(connection: str | None, path: Path | None, options: dict[str, Any]) -> Any:
    import chromadb

    tenant = str(options.get("tenant", "default_tenant"))
    database = str(options.get("database", "default_database"))
    if connection:
        url = urlparse(connection)
        if url.scheme not in ("http", "https"):
            raise StoreError(f"chromadb connection_string must be http(s)://, got {connection!r}")
        ssl = url.scheme == "https"
        return chromadb.HttpClient(
            host=url.hostname or "localhost",
            port=url.port or (443 if ssl else 8000),
            ssl=ssl,
            headers=options.get("headers"),
            tenant=tenant,
            database=database,
        )
    if path is not None:
        return chromadb.PersistentClient(path=str(path), tenant=tenant, database=database)
    return chromadb.EphemeralClient(tenant=tenant, database=database)


class ChromaStore:
    provider = "chromadb"

    def __init__(self, connection: str | None, path: Path | None, options: dict[str, Any]) -> None:
        self._connection = connection
        self._path = path
        self._options = options
        self._collection: Any = None
        self._client: Any = None

    def _open(self, collection: str) -> Any:
        self._release()  # opened again: one client at a time
        client = self._client = _client(self._connection, self._path, self._options)
        if collection in {c if isinstance(c, str) else c.name for c in client.list_collections()}:
            client.delete_collection(collection)  # the store holds exactly the source
        return client.create_collection(
            collection, metadata={"hnsw:space": "cosine"}, embedding_function=None
        )

    async def open(self, collection: str, dimensions: int) -> None:
        try:
            self._collection = await in_thread(self._open, collection)
        except StoreError:
            raise
        except Exception as exc:
            raise store_error("chromadb", exc, self._connection) from None

    def _add(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> None:
        for start in range(0, len(chunks), BATCH):
            part = chunks[start : start + BATCH]
            self._collection.add(
                ids=[c.id for c in part],
                embeddings=[list(v) for v in vectors[start : start + BATCH]],
                documents=[c.text for c in part],
                metadatas=[
                    {"source": c.source, "index": c.index, "meta": json.dumps(c.metadata)}
                    for c in part
                ],
            )

    async def add(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> None:
        await in_thread(self._add, chunks, vectors)

    def _search(self, vector: Sequence[float], top_k: int) -> list[Hit]:
        found = self._collection.query(
            query_embeddings=[list(vector)],
            n_results=top_k,
            include=["documents", "metadatas", "distances"],
        )
        hits: list[Hit] = []
        rows = zip(
            found["ids"][0],
            found["documents"][0],
            found["metadatas"][0],
            found["distances"][0],
            strict=True,
        )
        for id_, text, meta, distance in rows:
            chunk = Chunk(
                id_, text or "", str(meta["source"]), int(meta["index"]), loads(meta["meta"])
            )
            hits.append(Hit(chunk, similarity(1.0 - float(distance))))
        return hits

    async def search(self, vector: Sequence[float], top_k: int) -> list[Hit]:
        return await in_thread(self._search, vector, top_k)  # type: ignore[no-any-return]

    def _release(self) -> None:
        client, self._client = self._client, None
        if client is None:
            return
        client.close()  # the folder's lock of a persistent client
        # The HTTP client's connections: chromadb's close() leaves its httpx session open.
        for owner in (client, getattr(client, "_admin_client", None)):
            session = getattr(getattr(owner, "_server", None), "_session", None)
            if session is not None:
                session.close()

    async def close(self) -> None:
        self._collection = None
        await in_thread(self._release)
