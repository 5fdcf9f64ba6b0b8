"""Where embeddings are requested for each provider, which model serves the agent, and
what a wrong vector length says."""

from __future__ import annotations

from pathlib import Path

import pytest

from holodeck_lsp.models.agent import Agent
from holodeck_lsp.runner.tools.retrieval.embeddings import (
    EmbeddingError,
    EmbeddingTarget,
    embedding_target,
)
from tests.runner.fake_model import FakeModelServer, Reply
from tests.runner.helpers import run_suite, write


def agent(model: str, tools: str = "", extra: str = "") -> Agent:
    import yaml

    text = f"name: a\nmodel: {model}\ninstructions: {{inline: x}}\n{extra}"
    if tools:
        text += f"tools:\n{tools}"
    return Agent.model_validate(yaml.safe_load(text))


def store(name: str, model: str | None = None) -> str:
    line = f"  - {{name: {name}, type: vectorstore, description: d, source: docs"
    return line + (f", embedding_model: {model}}}\n" if model else "}\n")


@pytest.mark.parametrize(
    ("model", "extra", "env", "expected"),
    [
        (
            "{provider: openai, name: gpt-4o}",
            "",
            {"OPENAI_API_KEY": "sk-1"},
            EmbeddingTarget(
                "https://api.openai.com/v1/embeddings",
                {"Authorization": "Bearer sk-1"},
                "text-embedding-3-small",
                "openai",
            ),
        ),
        (
            "{provider: azure_openai, name: gpt-4o, endpoint: 'https://r.openai.azure.com/', "
            "api_key: k}",
            "",
            {},
            EmbeddingTarget(
                "https://r.openai.azure.com/openai/deployments/text-embedding-3-small/"
                "embeddings?api-version=2024-10-21",
                {"api-key": "k"},
                "text-embedding-3-small",
                "azure_openai",
            ),
        ),
        (
            "{provider: ollama, name: llama3}",
            "",
            {"OLLAMA_HOST": "127.0.0.1:11434"},
            EmbeddingTarget(
                "http://127.0.0.1:11434/v1/embeddings", {}, "nomic-embed-text:latest", "ollama"
            ),
        ),
        (
            "{provider: anthropic, name: claude-sonnet-4-5}",
            "embedding_provider: {provider: openai, name: e, endpoint: 'http://127.0.0.1:9/v1'}\n",
            {},
            EmbeddingTarget(
                "http://127.0.0.1:9/v1/embeddings", {}, "text-embedding-3-small", "openai"
            ),
        ),
    ],
    ids=["openai", "azure", "ollama", "anthropic-with-embedding-provider"],
)
def test_each_provider_embeds_at_its_own_address(
    model: str, extra: str, env: dict[str, str], expected: EmbeddingTarget
) -> None:
    assert embedding_target(agent(model, store("kb"), extra), env) == expected


def test_what_cannot_embed_is_said() -> None:
    with pytest.raises(EmbeddingError, match="Anthropic has no embeddings API"):
        embedding_target(agent("{provider: anthropic, name: claude-sonnet-4-5}"), {})
    tools = store("a", "text-embedding-3-small") + store("b", "text-embedding-3-large")
    with pytest.raises(
        EmbeddingError,
        match=r"different embedding models \(a=text-embedding-3-small, b=text-embedding-3-large\)",
    ):
        embedding_target(agent("{provider: openai, name: m}", tools), {"OPENAI_API_KEY": "k"})


def test_a_vector_length_other_than_configured_stops_the_run(tmp_path: Path) -> None:
    with FakeModelServer(lambda path, body: Reply("unused")) as server:
        files = {
            "agent.yaml": f"""
name: a
model: {{provider: openai, name: m, endpoint: "{server.url}"}}
instructions: {{inline: x}}
tools:
  - name: kb
    type: vectorstore
    description: d
    source: docs
    embedding_model: house-embedder
    embedding_dimensions: 128
test_cases:
  - input: hi
""",
            "docs/a.md": "Some text.\n",
        }
        code, _, err = run_suite(write(tmp_path, files))
    assert code == 2
    assert err.endswith(
        "error: tool 'kb' did not start: model 'house-embedder' sent vectors of 256 "
        "dimensions, expected 128: set embedding_dimensions: 256\n"
    )


async def test_a_service_that_never_answers_is_given_up_on() -> None:
    import asyncio

    from holodeck_lsp.runner.tools.retrieval.embeddings import Embedder

    accepted: list[asyncio.StreamWriter] = []

    async def silent(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.append(writer)  # read nothing, answer nothing

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1/embeddings"
    embedder = Embedder(EmbeddingTarget(url, {}, "m", "openai"), None, timeout=0.3)
    try:
        with pytest.raises(EmbeddingError, match=r"/v1/embeddings: no answer within 0\.3 s$"):
            await embedder.embed(["a text"])
    finally:
        await embedder.close()
        for writer in accepted:
            writer.close()
        server.close()
        await server.wait_closed()
