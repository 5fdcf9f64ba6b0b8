"""The one embedder of a run, shared by the agent's vector store and document tools and
made on first use (so an agent without such tools never needs an embeddings service)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from holodeck_lsp.models.agent import Agent
from holodeck_lsp.runner.services.http_client import RetryPolicy
from holodeck_lsp.runner.tools.retrieval.embedding_cache import EmbeddingCache
from holodeck_lsp.runner.tools.retrieval.embeddings import Embedder, embedding_target
from holodeck_lsp.runner.tools.tool_kind import ToolContext

CACHE_FOLDER = Path(".holodeck") / "cache"  # under the agent's folder, as HoloDeck's file cache


class SharedEmbedder:
    def __init__(self, agent: Agent, policy: RetryPolicy | None = None) -> None:
        self._agent = agent
        self._policy = policy
        self._embedder: Embedder | None = None
        self._lock = asyncio.Lock()
        self._users = 0  # tools holding the embedder; the last to let go closes it

    async def get(self, ctx: ToolContext) -> Embedder:
        """The embedder, held until `release`; raises EmbeddingError when the agent's
        provider cannot embed."""
        async with self._lock:
            if self._embedder is None:
                target = embedding_target(self._agent, ctx.env)
                folder = ctx.cache_dir or ctx.agent_dir / CACHE_FOLDER
                self._embedder = Embedder(
                    target,
                    EmbeddingCache(folder),
                    reingest=ctx.reingest,
                    policy=self._policy,
                    env=ctx.env,
                )
            self._users += 1
            return self._embedder

    @property
    def requests(self) -> int:
        return self._embedder.requests if self._embedder is not None else 0

    async def release(self) -> None:
        async with self._lock:
            self._users -= 1
            if self._users > 0 or self._embedder is None:
                return
            embedder, self._embedder = self._embedder, None
        await embedder.close()
