"""`type: hierarchical_document`: markdown split at its headings, each chunk embedded
and indexed for BM25, searched semantically, by keyword, or both fused by reciprocal
rank (`search_mode`, `semantic_weight`, `keyword_weight`, `rrf_k`), as HoloDeck does
when the keyword index is in memory. The model gets HoloDeck's text: one block per
result (`Score: 0.850 | Source: file`, `Location: A > B`, `Section: id`, the chunk),
joined by `---`, or `No results found.`.

Not done (documented): contextual summaries of chunks (`contextual_embeddings`, which
HoloDeck writes with a model at ingestion), reranking, an OpenSearch keyword index.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from holodeck_lsp.models.tools import ChunkingStrategy, HierarchicalDocumentTool, SearchMode
from holodeck_lsp.runner.services.user_threads import in_thread
from holodeck_lsp.runner.tools.retrieval.bm25 import BM25, fuse
from holodeck_lsp.runner.tools.retrieval.embedded_search import (
    EmbeddedSearch,
    query_of,
    search_spec,
    shown_path,
)
from holodeck_lsp.runner.tools.retrieval.embeddings import EmbeddingError
from holodeck_lsp.runner.tools.retrieval.ingest.sections import (
    Section,
    structure_chunks,
    token_chunks,
)
from holodeck_lsp.runner.tools.retrieval.ingest.sources import (
    SourceError,
    discover,
    read_text,
    resolve_source,
)
from holodeck_lsp.runner.tools.retrieval.shared_embedder import SharedEmbedder
from holodeck_lsp.runner.tools.retrieval.stores.store_interface import Chunk, StoreError
from holodeck_lsp.runner.tools.tool_kind import (
    FunctionSpec,
    ToolContext,
    ToolOutput,
    ToolStartError,
)

NO_RESULTS = "No results found."


@dataclass(frozen=True)
class Piece:
    """A chunk with where it sits in its document."""

    chunk: Chunk
    section: Section

    def keyword_text(self) -> str:
        """What BM25 indexes: the text, the heading path and the section id twice each
        (HoloDeck's boost by repetition), the file name."""
        chain = " > ".join(self.section.parents)
        parts = [self.chunk.text]
        if chain:
            parts += [chain, chain]
        if self.section.section_id:
            parts += [self.section.section_id] * 2
        parts.append(Path(self.chunk.source).name)
        return " ".join(parts)

    def format(self, score: float) -> str:
        location = " > ".join(self.section.parents) or "Root"
        lines = [f"Score: {score:.3f} | Source: {self.chunk.source}", f"Location: {location}"]
        if self.section.section_id:
            lines.append(f"Section: {self.section.section_id}")
        return "\n".join([*lines, "", self.chunk.text])


def _files(source: str, agent_dir: Path) -> list[Path]:
    if any(c in source for c in "*?["):
        return sorted(p for p in agent_dir.glob(source) if p.is_file())
    return discover(resolve_source(source, agent_dir))


def document_pieces(tool: HierarchicalDocumentTool, agent_dir: Path) -> list[Piece]:
    pieces: list[Piece] = []
    depth = tool.max_subsection_depth or 6
    for file in _files(tool.source, agent_dir):
        text = read_text(file)
        shown = shown_path(file, agent_dir)
        if tool.chunking_strategy is ChunkingStrategy.TOKEN:
            sections = token_chunks(text, tool.max_chunk_tokens, tool.chunk_overlap)
        else:
            sections = structure_chunks(text, tool.max_chunk_tokens, depth)
        for i, section in enumerate(sections):
            chunk = Chunk(f"{shown}_chunk_{i}", section.text, shown, i)
            pieces.append(Piece(chunk, section))
    return pieces


class HierarchicalKind(EmbeddedSearch):
    def __init__(
        self, tool: HierarchicalDocumentTool, embeddings: SharedEmbedder, claude_code: bool = False
    ) -> None:
        super().__init__(tool.name, embeddings, None, claude_code)
        self.tool = tool
        self._pieces: dict[str, Piece] = {}
        self._order: list[str] = []
        self._keywords: BM25 | None = None

    def _check(self) -> None:
        index = self.tool.keyword_index
        if index is not None and index.provider != "in-memory":
            raise SourceError(
                f"keyword_index provider '{index.provider}' is not supported by this runner; "
                "leave keyword_index out for the in-memory BM25 index"
            )

    async def start(self, ctx: ToolContext) -> list[FunctionSpec]:
        tool = self.tool
        try:
            self._check()
            pieces = await in_thread(document_pieces, tool, ctx.agent_dir)
            self._keywords = await in_thread(BM25, [p.keyword_text() for p in pieces])
            if tool.search_mode is not SearchMode.KEYWORD:
                await self.index(ctx, tool.database, [p.chunk for p in pieces])
        except (SourceError, StoreError, EmbeddingError) as exc:
            await self.close()
            raise ToolStartError(tool.name, str(exc)) from None
        self._pieces = {p.chunk.id: p for p in pieces}
        self._order = [p.chunk.id for p in pieces]
        return [search_spec(tool.name, tool.description, self.claude_code)]

    async def _semantic(self, query: str, top_k: int) -> list[tuple[str, float]]:
        return [(h.chunk.id, h.score) for h in await self.nearest(query, top_k)]

    def _keyword(self, query: str, top_k: int) -> list[tuple[str, float]]:
        assert self._keywords is not None
        return [(self._order[i], s) for i, s in self._keywords.top(query, top_k)]

    async def _ranked(self, query: str) -> list[tuple[str, float]]:
        tool, top_k = self.tool, self.tool.top_k
        if tool.search_mode is SearchMode.SEMANTIC:
            return await self._semantic(query, top_k)
        keyword = self._keyword(query, top_k)
        if tool.search_mode is SearchMode.KEYWORD:
            best = max((s for _, s in keyword), default=0.0)
            return [(key, s / best if best > 0 else 0.0) for key, s in keyword]
        semantic = await self._semantic(query, top_k)
        if not keyword:
            return semantic
        rankings = [[key for key, _ in semantic], [key for key, _ in keyword]]
        fused = fuse(rankings, [tool.semantic_weight, tool.keyword_weight], tool.rrf_k)
        return fused[:top_k]

    async def call(self, name: str, args: dict[str, Any]) -> ToolOutput:
        query = query_of(args)
        ranked = [(k, min(max(s, 0.0), 1.0)) for k, s in await self._ranked(query)]
        if self.tool.min_score is not None:
            ranked = [(k, s) for k, s in ranked if s >= self.tool.min_score]
        if not ranked:
            return ToolOutput(NO_RESULTS, retrieval=[])
        text = "\n---\n".join(self._pieces[k].format(s) for k, s in ranked)
        return ToolOutput(text, retrieval=[text])
