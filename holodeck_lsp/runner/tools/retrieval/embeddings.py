"""Embeddings through the agent's provider: OpenAI-compatible `/embeddings` (OpenAI, an
`endpoint:`, Ollama's `/v1`), Azure OpenAI deployments. Batched, sent concurrently,
cached on disk.

As HoloDeck does, one embedding model serves every tool of an agent: the tools'
`embedding_model` (they must agree), else `text-embedding-3-small`
(`nomic-embed-text:latest` on Ollama); an Anthropic agent embeds with its
`embedding_provider`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from holodeck_lsp.models.agent import Agent
from holodeck_lsp.models.llm import LLMProvider, ProviderEnum
from holodeck_lsp.models.tools import HierarchicalDocumentTool, VectorstoreTool
from holodeck_lsp.runner.services.failures import TurnFailure
from holodeck_lsp.runner.services.http_client import JsonClient, RetryPolicy
from holodeck_lsp.runner.services.redaction import active
from holodeck_lsp.runner.services.service_targets import (
    BackendConfigError,
    public_url,
    service_target,
)
from holodeck_lsp.runner.tools.retrieval.embedding_cache import EmbeddingCache

# Lengths of the vectors of well-known models; others are learnt from the first reply.
KNOWN_DIMENSIONS = {
    "text-embedding-3-small": 1536,
    "text-embedding-3-large": 3072,
    "text-embedding-ada-002": 1536,
    "nomic-embed-text": 768,
    "nomic-embed-text:latest": 768,
    "mxbai-embed-large": 1024,
    "snowflake-arctic-embed": 1024,
}
BATCH_SIZE = 64  # texts per request
CONCURRENCY = 4  # requests in flight
REQUEST_TIMEOUT = 120.0  # seconds one request may take, retries included


class EmbeddingError(Exception):
    """Embeddings cannot be had: no provider, refused key, wrong vector length, ..."""


@dataclass(frozen=True)
class EmbeddingTarget:
    url: str
    headers: dict[str, str]
    model: str
    provider: str


def agent_embedding_model(agent: Agent) -> str:
    """The one embedding model of the agent's tools; conflicting choices are an error."""
    chosen = {
        t.name: t.embedding_model
        for t in agent.tools or []
        if isinstance(t, (VectorstoreTool, HierarchicalDocumentTool)) and t.embedding_model
    }
    models = sorted(set(chosen.values()))
    if len(models) > 1:
        listed = ", ".join(f"{name}={model}" for name, model in sorted(chosen.items()))
        raise EmbeddingError(
            f"the tools name different embedding models ({listed}); one embedding model "
            "serves every tool of an agent, as in HoloDeck"
        )
    if models:
        return models[0]
    provider = embedding_provider(agent)
    if provider is not None and provider.provider is ProviderEnum.OLLAMA:
        return "nomic-embed-text:latest"
    return "text-embedding-3-small"


def embedding_provider(agent: Agent) -> LLMProvider | None:
    if agent.model.provider is ProviderEnum.ANTHROPIC:
        return agent.embedding_provider
    return agent.model


def embedding_target(agent: Agent, env: Mapping[str, str]) -> EmbeddingTarget:
    name = agent_embedding_model(agent)
    model = embedding_provider(agent)
    if model is None or model.provider is ProviderEnum.ANTHROPIC:
        raise EmbeddingError(
            "Anthropic has no embeddings API: set embedding_provider (openai, azure_openai "
            "or ollama) to embed the documents"
        )
    try:
        url, headers = service_target(model, env, "embeddings", deployment=name)
    except BackendConfigError as exc:
        raise EmbeddingError(str(exc)) from None
    return EmbeddingTarget(url, headers, name, model.provider.value)


def _vectors(data: dict[str, Any], count: int) -> list[list[float]]:
    items = data.get("data")
    if not isinstance(items, list) or len(items) != count:
        raise EmbeddingError(f"the embeddings service sent {active().clip(str(data), 200, '')!r}")
    ordered = sorted(items, key=lambda item: int(item.get("index", 0)))
    try:
        return [[float(x) for x in item["embedding"]] for item in ordered]
    except (KeyError, TypeError, ValueError) as exc:
        raise EmbeddingError(f"malformed embedding in the reply: {exc}") from None


class Embedder:
    """Texts to vectors; `requests` counts the calls made to the service."""

    def __init__(
        self,
        target: EmbeddingTarget,
        cache: EmbeddingCache | None,
        *,
        reingest: bool = False,
        policy: RetryPolicy | None = None,
        env: Mapping[str, str] | None = None,
        timeout: float = REQUEST_TIMEOUT,
    ) -> None:
        self.target = target
        self.timeout = timeout
        self.cache = cache
        self.reingest = reingest  # embed again, ignoring what the cache holds
        self.requests = 0
        # Texts being embedded right now: a concurrent request for one waits for it.
        self._pending: dict[tuple[int, str], asyncio.Future[list[float]]] = {}
        tls = not target.url.startswith("http:")
        self._client = JsonClient(target.headers, policy, CONCURRENCY, tls=tls, env=env)

    def dimensions(self, configured: int | None) -> int | None:
        """The vector length: configured, else the model's known one, else learnt."""
        return configured or KNOWN_DIMENSIONS.get(self.target.model)

    async def _request(self, texts: list[str], dimensions: int | None) -> list[list[float]]:
        body: dict[str, Any] = {"model": self.target.model, "input": texts}
        if dimensions is not None and self.target.model.startswith("text-embedding-3"):
            body["dimensions"] = dimensions  # only these models can shorten their vectors
        self.requests += 1
        try:
            data = await asyncio.wait_for(self._client.post(self.target.url, body), self.timeout)
        except TurnFailure as exc:
            raise EmbeddingError(f"{public_url(self.target.url)}: {exc}") from None
        except asyncio.TimeoutError:
            raise EmbeddingError(
                f"{public_url(self.target.url)}: no answer within {self.timeout:g} s"
            ) from None
        return _vectors(data, len(texts))

    def _check_lengths(self, vectors: dict[str, list[float]], dimensions: int | None) -> None:
        """Vectors of another length than expected are an error, before anything is kept."""
        lengths = {len(v) for v in vectors.values()}
        if dimensions is not None and lengths - {dimensions}:
            got = sorted(lengths - {dimensions})[0]
            raise EmbeddingError(
                f"model '{self.target.model}' sent vectors of {got} dimensions, expected "
                f"{dimensions}: set embedding_dimensions: {got}"
            )

    async def _fetch(self, texts: list[str], dimensions: int | None) -> dict[str, list[float]]:
        """Vectors of `texts` from the service, batched; texts already being fetched by
        another caller are awaited, not requested twice."""
        size = dimensions or 0
        mine = [t for t in texts if (size, t) not in self._pending]
        theirs = [self._pending[(size, t)] for t in texts if (size, t) in self._pending]
        loop = asyncio.get_running_loop()
        futures = {t: loop.create_future() for t in mine}
        self._pending.update({(size, t): f for t, f in futures.items()})
        batches = [mine[i : i + BATCH_SIZE] for i in range(0, len(mine), BATCH_SIZE)]
        try:
            results = await asyncio.gather(*(self._request(b, dimensions) for b in batches))
            fresh: dict[str, list[float]] = {}
            for batch, vectors in zip(batches, results, strict=True):
                fresh.update(zip(batch, vectors, strict=True))
            self._check_lengths(fresh, dimensions)
        except BaseException as exc:
            for future in futures.values():
                if isinstance(exc, Exception):
                    future.set_exception(exc)
                    future.exception()  # marked retrieved: no warning when nobody waits
                else:
                    future.cancel()  # this caller was cancelled: the waiters are too
            raise
        finally:
            for t in mine:
                self._pending.pop((size, t), None)
        for t, future in futures.items():
            future.set_result(fresh[t])
        if fresh and self.cache is not None:
            self.cache.put(self.target.model, size, list(fresh), list(fresh.values()))
        waited = await asyncio.gather(*theirs)
        shared = [t for t in texts if t not in futures]
        return {**fresh, **dict(zip(shared, waited, strict=True))}

    async def embed(self, texts: Sequence[str], configured: int | None = None) -> list[list[float]]:
        """One vector per text, in order; raises EmbeddingError on a wrong length."""
        dimensions = self.dimensions(configured)
        cached: list[list[float] | None] = [None] * len(texts)
        if self.cache is not None and not self.reingest:
            cached = self.cache.get(self.target.model, dimensions or 0, texts)
        missing = sorted({t for t, v in zip(texts, cached, strict=True) if v is None})
        fresh = await self._fetch(missing, dimensions) if missing else {}
        return [v if v is not None else fresh[t] for t, v in zip(texts, cached, strict=True)]

    async def close(self) -> None:
        await self._client.close()
        if self.cache is not None:
            self.cache.close()
