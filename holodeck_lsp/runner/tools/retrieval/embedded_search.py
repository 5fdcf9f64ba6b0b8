"""What the document search kinds share: the source's chunks embedded into a store at
start, queries embedded at call time, the model-facing `{name}_search` function."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from holodeck_lsp.models.tools import DatabaseConfig
from holodeck_lsp.runner.tools.claude_adapter import SEARCH_PARAMETERS as CLAUDE_SEARCH_PARAMETERS
from holodeck_lsp.runner.tools.claude_adapter import cut
from holodeck_lsp.runner.tools.retrieval.embeddings import Embedder, EmbeddingError
from holodeck_lsp.runner.tools.retrieval.shared_embedder import SharedEmbedder
from holodeck_lsp.runner.tools.retrieval.stores.store_choice import make_store
from holodeck_lsp.runner.tools.retrieval.stores.store_interface import (
    Chunk,
    Hit,
    StoreError,
    VectorStore,
)
from holodeck_lsp.runner.tools.tool_kind import FunctionSpec, ToolCallError, ToolContext

SEARCH_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {"query": {"type": "string"}},
    "required": ["query"],
    "additionalProperties": False,
}
FALLBACK_DIMENSIONS = 1536  # an empty source: no vector tells the length
# Where a store error says its database was configured, unless a config file's vector store
# replaced the name the agent wrote (`ToolContext.database_origins`).
IN_THE_AGENT = "the database is set in the agent file"


def search_spec(name: str, description: str, claude_code: bool) -> FunctionSpec:
    """The `{name}_search` function; ``claude_code``: as HoloDeck's Claude backend has it."""
    text = f"Search {name}: {description}"
    if claude_code:
        return FunctionSpec(f"{name}_search", cut(text), CLAUDE_SEARCH_PARAMETERS)
    return FunctionSpec(f"{name}_search", text, SEARCH_PARAMETERS)


def shown_path(path: Path, agent_dir: Path) -> str:
    """A source file as results name it: relative to the agent's folder when inside it."""
    try:
        return path.relative_to(agent_dir.resolve()).as_posix()
    except ValueError:
        return str(path)


def query_of(args: dict[str, Any]) -> str:
    query = args.get("query")
    if not isinstance(query, str) or not query.strip():
        raise ToolCallError("Search query cannot be empty")
    return query


class EmbeddedSearch:
    """A tool's chunks in a vector store, and the embedder that reads queries."""

    is_retrieval = True

    def __init__(
        self, name: str, embeddings: SharedEmbedder, dimensions: int | None, claude_code: bool
    ) -> None:
        self.tool_name = name
        self.claude_code = claude_code  # declared as HoloDeck's Claude backend declares it
        self._embeddings = embeddings
        self._embedder: Embedder | None = None
        self._store: VectorStore | None = None
        self._dimensions = dimensions

    async def index(
        self, ctx: ToolContext, database: DatabaseConfig | str | None, chunks: list[Chunk]
    ) -> None:
        """Embed `chunks` and fill the tool's collection; raises StoreError/EmbeddingError,
        the error of a database that failed saying where it was configured."""
        store = make_store(database, ctx.agent_dir)
        self._embedder = await self._embeddings.get(ctx)
        vectors = await self._embedder.embed([c.text for c in chunks], self._dimensions)
        dimensions = len(vectors[0]) if vectors else self._embedder.dimensions(self._dimensions)
        self._dimensions = dimensions or FALLBACK_DIMENSIONS
        try:
            await store.open(f"holodeck_{self.tool_name}_dim{self._dimensions}", self._dimensions)
            self._store = store
            await store.add(chunks, vectors)
        except StoreError as exc:
            where = ctx.database_origins.get(self.tool_name, IN_THE_AGENT)
            raise StoreError(f"{exc}; {where}") from None

    async def nearest(self, query: str, top_k: int) -> list[Hit]:
        assert self._store is not None and self._embedder is not None  # started
        try:
            vector = (await self._embedder.embed([query], self._dimensions))[0]
        except EmbeddingError as exc:
            raise ToolCallError(f"cannot embed the query: {exc}") from None
        return await self._store.search(vector, top_k)

    async def close(self) -> None:
        store, self._store = self._store, None
        if store is not None:
            await store.close()
        if self._embedder is not None:
            self._embedder = None
            await self._embeddings.release()
