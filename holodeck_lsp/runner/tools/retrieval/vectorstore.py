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
from holodeck_lsp.runner.services.user_threads import in_thread
from holodeck_lsp.runner.tools.retrieval.embedded_search import (
    EmbeddedSearch,
    query_of,
    search_spec,
    shown_path,
)
from holodeck_lsp.runner.tools.retrieval.embeddings import EmbeddingError
from holodeck_lsp.runner.tools.retrieval.ingest.paragraphs import (
    DEFAULT_CHUNK_SIZE,
    split_paragraphs,
)
from holodeck_lsp.runner.tools.retrieval.ingest.records import load_records
from holodeck_lsp.runner.tools.retrieval.ingest.sources import (
    SourceError,
    discover,
    read_text,
    resolve_source,
)
from holodeck_lsp.runner.tools.retrieval.shared_embedder import SharedEmbedder
from holodeck_lsp.runner.tools.retrieval.stores.store_interface import Chunk, Hit, StoreError
from holodeck_lsp.runner.tools.tool_kind import (
    FunctionSpec,
    ToolContext,
    ToolOutput,
    ToolStartError,
)


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


class VectorstoreKind(EmbeddedSearch):
    def __init__(
        self, tool: VectorstoreTool, embeddings: SharedEmbedder, claude_code: bool = False
    ) -> None:
        super().__init__(tool.name, embeddings, tool.embedding_dimensions, claude_code)
        self.tool = tool

    @property
    def structured(self) -> bool:
        return self.tool.vector_field is not None

    async def start(self, ctx: ToolContext) -> list[FunctionSpec]:
        tool = self.tool
        try:
            build = record_chunks if self.structured else file_chunks
            await self.index(ctx, tool.database, await in_thread(build, tool, ctx.agent_dir))
        except (SourceError, StoreError, EmbeddingError) as exc:
            await self.close()
            raise ToolStartError(tool.name, str(exc)) from None
        return [search_spec(tool.name, tool.description, self.claude_code)]

    async def call(self, name: str, args: dict[str, Any]) -> ToolOutput:
        query = query_of(args)
        hits = await self.nearest(query, self.tool.top_k)
        floor = self.tool.min_similarity_score
        if floor is not None:
            hits = [h for h in hits if h.score >= floor]
        text = format_hits(hits[: self.tool.top_k], query, self.structured)
        return ToolOutput(text, retrieval=[text] if hits else [])
