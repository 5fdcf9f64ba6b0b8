"""Every vector store behind the one interface, each with its real client library:
in memory, ChromaDB (embedded, and a `chroma run` server), Qdrant (local mode in a folder
and in memory), FAISS, PostgreSQL with pgvector (a server started here)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from holodeck_lsp.models.tools import DatabaseConfig
from holodeck_lsp.runner.tools.retrieval.stores.store_choice import make_store
from holodeck_lsp.runner.tools.retrieval.stores.store_interface import (
    Chunk,
    StoreError,
    VectorStore,
)
from tests.runner.services import chroma_server, postgres_server

CHUNKS = [
    Chunk("a.md_chunk_0", "apples are red", "a.md", 0, {}),
    Chunk("b.md_chunk_0", "bananas are yellow", "b.md", 0, {"shelf": "2"}),
    Chunk("c.md_chunk_0", "cherries are dark red", "c.md", 0, {}),
]
VECTORS = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.8, 0.0, 0.6]]
QUERY = [1.0, 0.0, 0.0]
# Cosine similarities of QUERY with each vector: 1.0, 0.0, 0.8.
EXPECTED = [("a.md_chunk_0", 1.0), ("c.md_chunk_0", 0.8)]


def database(provider: str, **settings: object) -> DatabaseConfig:
    return DatabaseConfig.model_validate({"provider": provider, **settings})


async def _exercise(store: VectorStore) -> None:
    await store.open("holodeck_kb_dim3", 3)
    try:
        await store.add(CHUNKS, VECTORS)
        hits = await store.search(QUERY, 2)
        assert [(h.chunk.id, round(h.score, 4)) for h in hits] == EXPECTED
        assert hits[0].chunk == CHUNKS[0]
        structured = await store.search([0.0, 1.0, 0.0], 1)
        assert structured[0].chunk == CHUNKS[1]  # metadata comes back as stored
        # Opening again empties the collection: the store holds exactly the source.
        await store.open("holodeck_kb_dim3", 3)
        assert await store.search(QUERY, 2) == []
    finally:
        await store.close()


@pytest.mark.parametrize(
    "config",
    [
        None,
        database("in-memory"),
        database("chromadb"),
        database("chromadb", path="chroma-data"),
        database("qdrant", connection_string=":memory:"),
        database("qdrant", path="qdrant-data"),
        database("faiss", path="faiss-data"),
    ],
    ids=[
        "default",
        "in-memory",
        "chroma-ephemeral",
        "chroma-path",
        "qdrant-memory",
        "qdrant-path",
        "faiss",
    ],
)
async def test_each_local_store_ranks_by_cosine_similarity(
    config: DatabaseConfig | None, tmp_path: Path
) -> None:
    await _exercise(make_store(config, tmp_path))


async def test_files_land_in_the_configured_folders(tmp_path: Path) -> None:
    await _exercise(make_store(database("qdrant", path="q"), tmp_path))
    await _exercise(make_store(database("faiss", path="f"), tmp_path))
    assert (tmp_path / "q").is_dir()
    assert (tmp_path / "f" / "holodeck_kb_dim3.faiss").is_file()


@pytest.fixture(scope="module")
def chroma_url() -> Iterator[str]:
    with chroma_server(Path(sys.executable).parent / "chroma") as url:
        yield url


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


@pytest.mark.slow
async def test_a_chroma_server_through_the_http_client(chroma_url: str, tmp_path: Path) -> None:
    await _exercise(make_store(database("chromadb", connection_string=chroma_url), tmp_path))


@pytest.mark.slow
async def test_postgres_with_pgvector(postgres_url: str, tmp_path: Path) -> None:
    await _exercise(make_store(database("postgres", connection_string=postgres_url), tmp_path))


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (database("pinecone"), "database provider 'pinecone' is not supported by this runner"),
        (database("weaviate"), "database provider 'weaviate' is not supported by this runner"),
        (database("postgres"), "postgres needs a connection_string"),
    ],
)
def test_stores_this_runner_cannot_reach_are_named(
    config: DatabaseConfig, message: str, tmp_path: Path
) -> None:
    with pytest.raises(StoreError, match=message):
        make_store(config, tmp_path)


async def test_an_unreachable_database_is_an_error_not_a_fallback(tmp_path: Path) -> None:
    url = "postgresql://nobody@127.0.0.1:9/none"  # port 9: nothing listens there
    store = make_store(database("postgres", connection_string=url), tmp_path)
    with pytest.raises(StoreError, match=r"^postgres: OperationalError"):
        await store.open("holodeck_kb_dim3", 3)


def test_database_clients_are_imported_only_when_a_store_needs_them() -> None:
    """Loading the runner (and `check`) imports no database client, numpy or PDF reader."""
    import subprocess

    code = (
        "import sys, holodeck_lsp.cli, holodeck_lsp.runner.command, "
        "holodeck_lsp.runner.tools.catalog; "
        "print(sorted(m for m in ('chromadb', 'qdrant_client', 'psycopg', 'faiss', 'numpy', "
        "'pypdf') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "[]\n"


@pytest.mark.slow
async def test_qdrant_server_mode_through_the_rest_client(tmp_path: Path) -> None:
    """The `url` path of the Qdrant store, against a loopback stand-in over Qdrant's engine."""
    # Imported here: qdrant-client takes a second to import, in every process collecting this.
    from tests.runner.qdrant_standin import qdrant_standin

    with qdrant_standin() as url:
        await _exercise(make_store(database("qdrant", connection_string=url), tmp_path))
        await _exercise(make_store(database("qdrant", url=url), tmp_path))
