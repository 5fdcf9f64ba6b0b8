"""The store a tool's `database:` asks for, or why this runner cannot give it.

HoloDeck falls back to the in-memory store, with only a warning, when a configured
database cannot be reached; here that stops the run (exit 2): a silent fallback would
test another agent than the one configured.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from holodeck_lsp.install_hints import install_extra
from holodeck_lsp.models.tools import DatabaseConfig
from holodeck_lsp.runner.tools.retrieval.stores.store_interface import StoreError, VectorStore

# provider -> (the modules it needs, the extra that installs them)
EXTRAS: dict[str, tuple[tuple[str, ...], str]] = {
    "chromadb": (("chromadb",), "chroma"),
    "qdrant": (("qdrant_client",), "qdrant"),
    "postgres": (("psycopg",), "postgres"),
    "faiss": (("faiss", "numpy"), "faiss"),
}
UNREACHABLE = frozenset(
    {
        "pinecone",
        "azure-ai-search",
        "weaviate",
        "azure-cosmos-mongo",
        "azure-cosmos-nosql",
        "sql-server",
    }
)


def missing_extra(provider: str) -> str | None:
    """Why `provider`'s client library cannot be used here, or None."""
    needed = EXTRAS.get(provider)
    if needed is None:
        return None
    modules, extra = needed
    absent = [m for m in modules if importlib.util.find_spec(m) is None]
    if not absent:
        return None
    return (
        f"the {provider} store needs {', '.join(absent)}, which is not installed: "
        f"{install_extra(extra)}"
    )


def _path(options: dict[str, Any], agent_dir: Path) -> Path | None:
    raw = options.get("path") or options.get("persist_directory")
    if not raw:
        return None
    path = Path(str(raw))
    return path if path.is_absolute() else agent_dir / path


def make_store(database: DatabaseConfig | str | None, agent_dir: Path) -> VectorStore:
    """The store; raises StoreError for a provider this runner cannot reach or a missing
    client library."""
    if database is None or isinstance(database, str):
        # A name config.yaml does not define: in memory, as HoloDeck does (check warns HL606).
        from holodeck_lsp.runner.tools.retrieval.stores.memory import MemoryStore

        return MemoryStore()
    provider = database.provider
    if provider in UNREACHABLE:
        raise StoreError(
            f"database provider '{provider}' is not supported by this runner (a hosted "
            "service it cannot reach); use in-memory, chromadb, qdrant, postgres or faiss"
        )
    problem = missing_extra(provider)
    if problem is not None:
        raise StoreError(problem)
    options = dict(database.model_extra or {})
    secret = database.connection_string
    connection = secret.get_secret_value() if secret is not None else None
    path = _path(options, agent_dir)
    if provider == "chromadb":
        from holodeck_lsp.runner.tools.retrieval.stores.chroma import ChromaStore

        return ChromaStore(connection, path, options)
    if provider == "qdrant":
        from holodeck_lsp.runner.tools.retrieval.stores.qdrant import QdrantStore

        return QdrantStore(connection, path, options)
    if provider == "postgres":
        from holodeck_lsp.runner.tools.retrieval.stores.postgres import PostgresStore

        return PostgresStore(connection, options)
    if provider == "faiss":
        from holodeck_lsp.runner.tools.retrieval.stores.faiss import FaissStore

        return FaissStore(path)
    from holodeck_lsp.runner.tools.retrieval.stores.memory import MemoryStore

    return MemoryStore()
