"""PostgreSQL with the pgvector extension, through psycopg: one table per tool, cosine
distance (`<=>`), the extension created when the database allows it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from holodeck_lsp.nesting import loads
from holodeck_lsp.runner.tools.retrieval.stores.store_interface import (
    Chunk,
    Hit,
    StoreError,
    similarity,
    store_error,
)


def _literal(vector: Sequence[float]) -> str:
    """A vector in pgvector's text form, `[1.0,2.0]`: no adapter library needed."""
    return "[" + ",".join(repr(float(x)) for x in vector) + "]"


class PostgresStore:
    provider = "postgres"

    def __init__(self, connection: str | None, options: dict[str, Any]) -> None:
        if not connection:
            raise StoreError("postgres needs a connection_string (postgresql://user:pass@host/db)")
        self._connection = connection
        self._schema = str(options.get("db_schema") or "public")
        self._conn: Any = None
        self._table = ""

    async def open(self, collection: str, dimensions: int) -> None:
        import psycopg
        from psycopg import sql

        await self.close()  # opened again: one client at a time (local mode locks its folder)
        self._table = collection
        table = sql.Identifier(self._schema, collection)
        try:
            self._conn = await psycopg.AsyncConnection.connect(
                self._connection, autocommit=True, connect_timeout=10
            )
            await self._conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            await self._conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(table))
            await self._conn.execute(
                sql.SQL(
                    "CREATE TABLE {} (id TEXT PRIMARY KEY, content TEXT, source TEXT, "
                    "chunk_index INTEGER, meta JSONB, embedding vector({}))"
                ).format(table, sql.Literal(dimensions))
            )
        except Exception as exc:
            await self.close()
            raise store_error("postgres", exc) from None

    async def add(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> None:
        from psycopg import sql

        query = sql.SQL(
            "INSERT INTO {} (id, content, source, chunk_index, meta, embedding) "
            "VALUES (%s, %s, %s, %s, %s, %s::vector)"
        ).format(sql.Identifier(self._schema, self._table))
        rows = [
            (c.id, c.text, c.source, c.index, json.dumps(c.metadata), _literal(v))
            for c, v in zip(chunks, vectors, strict=True)
        ]
        async with self._conn.cursor() as cursor:
            await cursor.executemany(query, rows)

    async def search(self, vector: Sequence[float], top_k: int) -> list[Hit]:
        from psycopg import sql

        query = sql.SQL(
            "SELECT id, content, source, chunk_index, meta, 1 - (embedding <=> %s::vector) "
            "FROM {} ORDER BY embedding <=> %s::vector, chunk_index LIMIT %s"
        ).format(sql.Identifier(self._schema, self._table))
        literal = _literal(vector)
        async with self._conn.cursor() as cursor:
            await cursor.execute(query, (literal, literal, top_k))
            rows = await cursor.fetchall()
        return [
            Hit(
                Chunk(
                    id_, text, source, index, meta if isinstance(meta, dict) else loads(meta)
                ),
                similarity(float(score)),
            )
            for id_, text, source, index, meta, score in rows
        ]

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            await conn.close()
