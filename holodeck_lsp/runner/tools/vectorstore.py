"""`type: vectorstore`: the source ingested before the first test case (chunked, embedded,
stored), then searched by the model through `{name}_search`.

What the model gets back is HoloDeck's text: `Found N result(s):` and one block per hit
(`[rank] Score: 0.89 | Source: file` and the chunk; for structured records `[rank] ID: id
| Score: 0.89`, `Content: ...`, `Metadata: k: v, ...`), or `No relevant results found
for query: ...`. Sources are named relative to the agent's folder (HoloDeck prints the
absolute path), so reports and recordings do not depend on where the suite lives.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from holodeck_lsp.models.tools import VectorstoreTool
from holodeck_lsp.runner.threads import in_thread
from holodeck_lsp.runner.tools.base import (
    FunctionSpec,
    ToolCallError,
    ToolContext,
    ToolOutput,
    ToolStartError,
)
from holodeck_lsp.runner.tools.embeddings import Embedder, EmbeddingError
from holodeck_lsp.runner.tools.ingest.paragraphs import DEFAULT_CHUNK_SIZE, split_paragraphs
from holodeck_lsp.runner.tools.ingest.records import load_records
from holodeck_lsp.runner.tools.ingest.sources import (
    SourceError,
    discover,
    read_text,
    resolve_source,
)
from holodeck_lsp.runner.tools.shared_embedder import SharedEmbedder
from holodeck_lsp.runner.tools.stores.base import Chunk, Hit, StoreError, VectorStore
from holodeck_lsp.runner.tools.stores.choose import make_store

SEARCH_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {"query": {"type": "string"}},
    "required": ["query"],
    "additionalProperties": False,
}
FALLBACK_DIMENSIONS = 1536  # an empty source: no vector tells the length


def search_spec(name: str, description: str) -> FunctionSpec:
    return FunctionSpec(f"{name}_search", f"Search {name}: {description}", SEARCH_PARAMETERS)


def shown_path(path: Path, agent_dir: Path) -> str:
    try:
        return path.relative_to(agent_dir.resolve()).as_posix()
    except ValueError:
        return str(path)


def query_of(args: dict[str, Any]) -> str:
    query = args.get("query")
    if not isinstance(query, str) or not query.strip():
        raise ToolCallError("Search query cannot be empty")
    return query


def file_chunks(tool: VectorstoreTool, agent_dir: Path) -> list[Chunk]:
    """The source's files, each read and split into chunks."""
    chunks: list[Chunk] = []
    size = tool.chunk_size or DEFAULT_CHUNK_SIZE
    for file in discover(resolve_source(tool.source, agent_dir)):
        text = read_text(file)
        if not text.strip():
            continue  # HoloDeck skips empty files too
        shown = shown_path(file, agent_dir)
        pieces = split_paragraphs(text, size)
        chunks.extend(Chunk(f"{shown}_chunk_{i}", p, shown) for i, p in enumerate(pieces))
    return chunks


def record_chunks(tool: VectorstoreTool, agent_dir: Path) -> list[Chunk]:
    path = resolve_source(tool.source, agent_dir)
    if not path.is_file():
        raise SourceError(f"source {path} is not a file (structured data is one file)")
    shown = shown_path(path, agent_dir)
    return [
        Chunk(r.id, r.text, shown, i, r.metadata) for i, r in enumerate(load_records(path, tool))
    ]


def format_hits(hits: list[Hit], query: str, structured: bool) -> str:
    if not hits:
        return f"No relevant results found for query: {query}"
    lines = [f"Found {len(hits)} result(s):", ""]
    for rank, hit in enumerate(hits, 1):
        chunk = hit.chunk
        if structured:
            lines.append(f"[{rank}] ID: {chunk.id} | Score: {hit.score:.2f}")
            lines.append(f"Content: {chunk.text}")
            if chunk.metadata:
                lines.append(
                    "Metadata: " + ", ".join(f"{k}: {v}" for k, v in chunk.metadata.items())
                )
        else:
            lines.append(f"[{rank}] Score: {hit.score:.2f} | Source: {chunk.source}")
            lines.append(chunk.text)
        lines.append("")
    return "\n".join(lines).rstrip()


class VectorstoreKind:
    is_retrieval = True

    def __init__(self, tool: VectorstoreTool, embeddings: SharedEmbedder) -> None:
        self.tool = tool
        self.tool_name = tool.name
        self._embeddings = embeddings
        self._embedder: Embedder | None = None
        self._store: VectorStore | None = None
        self._dimensions: int | None = tool.embedding_dimensions
        self.chunk_count = 0

    @property
    def structured(self) -> bool:
        return self.tool.vector_field is not None

    async def start(self, ctx: ToolContext) -> list[FunctionSpec]:
        tool = self.tool
        try:
            store = make_store(tool.database, ctx.agent_dir)
            build = record_chunks if self.structured else file_chunks
            chunks = await in_thread(build, tool, ctx.agent_dir)
            self._embedder = await self._embeddings.get(ctx)
            vectors = await self._embedder.embed([c.text for c in chunks], self._dimensions)
            dimensions = len(vectors[0]) if vectors else self._embedder.dimensions(self._dimensions)
            self._dimensions = dimensions or FALLBACK_DIMENSIONS
            await store.open(f"holodeck_{tool.name}_dim{self._dimensions}", self._dimensions)
            self._store = store
            await store.add(chunks, vectors)
        except (SourceError, StoreError, EmbeddingError) as exc:
            await self.close()
            raise ToolStartError(tool.name, str(exc)) from None
        self.chunk_count = len(chunks)
        return [search_spec(tool.name, tool.description)]

    async def call(self, name: str, args: dict[str, Any]) -> ToolOutput:
        query = query_of(args)
        assert self._store is not None and self._embedder is not None  # started
        try:
            vector = (await self._embedder.embed([query], self._dimensions))[0]
        except EmbeddingError as exc:
            raise ToolCallError(f"cannot embed the query: {exc}") from None
        hits = await self._store.search(vector, self.tool.top_k)
        floor = self.tool.min_similarity_score
        if floor is not None:
            hits = [h for h in hits if h.score >= floor]
        text = format_hits(hits[: self.tool.top_k], query, self.structured)
        return ToolOutput(text, retrieval=[text] if hits else [])

    async def close(self) -> None:
        store, self._store = self._store, None
        if store is not None:
            await store.close()
        if self._embedder is not None:
            self._embedder = None
            await self._embeddings.release()
