"""Preflight of every vector store and hierarchical document tool of the real corpus.

    python -m benchmarks.corpus_stores

For each agent of `tests/data/corpus/real` with such tools: its folder is copied to a
temporary one, its `${VAR}`s get loopback values, a missing `source:` gets a small
stand-in (text, markdown, PDF, or JSON/CSV records with the fields the tool names), and
each tool is started as `run` starts it (ingested into its store, against a loopback
embeddings service, a `chroma run` server, a PostgreSQL with pgvector, and a loopback
Qdrant stand-in (tests/runner/qdrant_standin.py: a test double over qdrant-client's local
engine, since no Qdrant server can be installed here) started here).
Prints one line per agent and how many start every such tool they declare, with the
reason for each that does not.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from holodeck_lsp.models.tools import HierarchicalDocumentTool, VectorstoreTool
from holodeck_lsp.runner.collect.loading import ConfigError, load_suite
from holodeck_lsp.runner.tools.retrieval.retrieval_kinds import RetrievalKinds
from holodeck_lsp.runner.tools.tool_kind import ToolContext, ToolStartError
from tests.runner.fake_model import FakeModelServer, Reply
from tests.runner.qdrant_standin import qdrant_standin
from tests.runner.sample_files import one_page_pdf
from tests.runner.services import chroma_server, postgres_server

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "data" / "corpus" / "real"
SearchTool = VectorstoreTool | HierarchicalDocumentTool


def environment(
    variables: list[str], model_url: str, root: str, postgres: str, qdrant: str
) -> dict[str, str]:
    env = {"OPENAI_BASE_URL": model_url, "OLLAMA_HOST": root}
    for name in variables:
        if name.endswith("CONNECTION_STRING"):
            env[name] = postgres
        elif name.startswith("QDRANT"):
            env[name] = qdrant
        elif name.endswith(("_ENDPOINT", "_URL")):
            env[name] = root
        else:
            env[name] = "loopback-placeholder"
    return env


def _fields(tool: VectorstoreTool) -> list[str]:
    vector = tool.vector_field
    names = [vector] if isinstance(vector, str) else list(vector or [])
    return [tool.id_field or "id", *names, *(tool.meta_fields or [])]


def _records(tool: VectorstoreTool, path: Path) -> None:
    fields = _fields(tool)
    rows = [{f: f"{f} value {i}" for f in fields} for i in range(3)]
    if path.suffix == ".csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=fields, delimiter=tool.delimiter or ",")
        writer.writeheader()
        writer.writerows(rows)
        path.write_text(out.getvalue())
        return
    data: Any = rows
    for key in reversed((tool.record_path or "").split(".") if tool.record_path else []):
        data = {key: data}
    if path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    else:
        path.write_text(json.dumps(data))


def stand_in(tool: SearchTool, folder: Path) -> bool:
    """Writes a small source where the configured one is missing; True if it did."""
    source = tool.source
    if "://" in source and not source.startswith("file://"):
        return False
    path = folder / source.removeprefix("file://")
    if path.exists() or any(c in source for c in "*?["):
        return False
    if isinstance(tool, VectorstoreTool) and tool.vector_field is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        _records(tool, path)
    elif path.suffix == ".pdf":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(one_page_pdf("A stand-in page about the agent's subject."))
    elif path.suffix:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("# Stand-in\n\nA stand-in document about the agent's subject.\n")
    else:
        path.mkdir(parents=True, exist_ok=True)
        (path / "stand-in.md").write_text("# Stand-in\n\nA stand-in document.\n")
    return True


async def start_tools(
    tools: list[SearchTool], kinds: RetrievalKinds, ctx: ToolContext
) -> list[str]:
    problems: list[str] = []
    for tool in tools:
        kind = kinds.make(tool)
        assert kind is not None
        try:
            await kind.start(ctx)
        except ToolStartError as exc:
            problems.append(f"{tool.name}: {exc.message}")
        finally:
            await kind.close()
    return problems


def check_agent(
    entry: dict[str, Any], urls: tuple[str, str, str, str, str], work: Path
) -> str | None:
    """None when every search tool started, else why not."""
    model_url, root, chroma, postgres, qdrant = urls
    source = CORPUS / entry["file"]
    folder = work / source.parent.name
    shutil.copytree(source.parent, folder)
    agent_file = folder / source.name
    # Servers the samples expect on localhost: the ones started here instead.
    for file in [agent_file, *folder.glob("config.y*ml")]:
        text = file.read_text().replace("http://localhost:8000", chroma)
        text = text.replace("http://localhost:6333", qdrant)
        file.write_text(text.replace("http://localhost:11434", root))
    env = environment(entry["env_vars"], model_url, root, postgres, qdrant)
    try:
        suite = load_suite(agent_file, env, user_config=False)
    except ConfigError as exc:
        return "does not load: " + "; ".join(exc.lines or list(exc.diagnostics))
    tools = [
        t
        for t in suite.agent.tools or []
        if isinstance(t, (VectorstoreTool, HierarchicalDocumentTool))
    ]
    for tool in tools:
        stand_in(tool, folder)
    ctx = ToolContext(folder, env)
    problems = asyncio.run(start_tools(tools, RetrievalKinds(suite.agent), ctx))
    return "; ".join(problems) or None


def main() -> None:
    index = json.loads((CORPUS / "index.json").read_text())
    entries = [
        e
        for e in index
        if e["kind"] == "agent"
        and any(
            k in (CORPUS / e["file"]).read_text() for k in ("vectorstore", "hierarchical_document")
        )
    ]
    started = 0
    chroma_bin = Path(sys.executable).parent / "chroma"
    with (
        FakeModelServer(lambda path, body: Reply("unused")) as model,
        chroma_server(chroma_bin) as chroma,
        postgres_server() as postgres,
        qdrant_standin() as qdrant,
        tempfile.TemporaryDirectory() as tmp,
    ):
        for number, entry in enumerate(entries):
            work = Path(tmp) / str(number)
            work.mkdir()
            problem = check_agent(entry, (model.url, model.root, chroma, postgres, qdrant), work)
            started += problem is None
            print(
                f"{'ok  ' if problem is None else 'FAIL'} {entry['file']}"
                + (f": {problem}" if problem else "")
            )
    print(
        f"{started} of {len(entries)} agents start every vector store / document tool they declare"
    )


if __name__ == "__main__":
    main()
