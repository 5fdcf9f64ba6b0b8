"""`run` with vector store tools against the loopback model service (chat, judge and
embeddings): the planted fact found among nine files, the embeddings cache, retrieval
context for RAG metrics, preflight failures, record and replay."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.runner.fake_model import Action, FakeModelServer, Reply, last_user_text, tool_results
from tests.runner.helpers import run_suite, strip_timings, turns, write
from tests.runner.judge_script import valid

FILLER = [
    "The cafeteria serves lunch from noon until two in the afternoon.",
    "Parking permits are renewed every January at the front desk.",
    "The library closes early on public holidays and reopens the next morning.",
    "Printers on the third floor need a badge to release documents.",
    "Fire drills happen twice a year; follow the green signs outside.",
    "Meeting rooms are booked through the calendar, at most two hours at a time.",
    "Bicycles go in the basement rack, never in the corridors.",
    "The gym is free for staff and opens at six in the morning.",
]
FACT = "The vault access code is 7319, changed every quarter by security."
QUESTION = "What is the vault access code?"


def documents() -> dict[str, str]:
    files = {f"docs/note{i}.md": f"# Note {i}\n\n{text}\n" for i, text in enumerate(FILLER)}
    files["docs/sub/vault.md"] = f"# Vault\n\n{FACT}\n"
    return files


def agent_yaml(url: str, tools: str, cases: str, metrics: str = "") -> str:
    return f"""
name: kb-agent
model: {{provider: openai, name: agent-model, endpoint: "{url}"}}
instructions: {{inline: Answer from the knowledge base.}}
tools:
{tools}
{metrics}
test_cases:
{cases}
"""


KB = """
  - name: kb
    type: vectorstore
    description: Office notes
    source: docs
    top_k: 1
"""


def agent_script(path: str, body: dict[str, Any]) -> Action:
    """The agent searches for the question, then answers with the sentence of the
    search result that has a number in it (or says it found nothing)."""
    if body.get("model") == "judge-model":
        return valid({"claims": [{"claim": "the code", "verdict": "yes"}], "reason": "ok"})
    results = tool_results(body)
    question = last_user_text(body)
    if not results:
        calls = [("kb_search", {"query": question})]
        if "time" in question:
            calls.append(("clock", {}))
        return Reply(tool_calls=calls) if "?" in question else Reply("Noted.")
    found = re.findall(r"[^.\n]*\d{4}[^.]*\.", results[0])
    return Reply(found[0].strip() if found else "I do not know.")


def embedding_requests(server: FakeModelServer) -> int:
    return sum(1 for path, _, _ in server.requests if path.endswith("/embeddings"))


@pytest.mark.parametrize(
    "database",
    [
        "",
        "    database: {provider: chromadb, path: chroma}\n",
        "    database: {provider: qdrant, path: qdrant}\n",
        "    database: {provider: faiss, path: faiss}\n",
        "    database: shared\n",  # a vector store named in config.yaml
    ],
    ids=["in-memory", "chroma", "qdrant", "faiss", "config-yaml"],
)
def test_the_planted_fact_is_found_and_carried_into_the_answer(
    database: str, tmp_path: Path
) -> None:
    with FakeModelServer(agent_script) as server:
        cases = f"  - name: vault\n    input: {QUESTION}\n"
        config = "vectorstores:\n  shared: {provider: qdrant, connection_string: ':memory:'}\n"
        files = {
            "agent.yaml": agent_yaml(server.url, KB + database, cases),
            "config.yaml": config,
            **documents(),
        }
        agent = write(tmp_path, files)
        code, report, err = run_suite(agent)
        assert (code, err) == (0, "")
        turn = report["results"][0]
        assert (
            turn["agent_response"]
            == "The vault access code is 7319, changed every quarter by security."
        )
        [call] = turn["tool_invocations"]
        assert (call["name"], call["args"], call["error"]) == (
            "kb_search",
            {"query": QUESTION},
            None,
        )
        assert re.fullmatch(
            r"Found 1 result\(s\):\n\n\[1\] Score: 0\.\d\d \| Source: docs/sub/vault\.md\n"
            r"# Vault\n" + re.escape(FACT),
            call["result"],
        ), call["result"]
        # The tool as the model saw it.
        first = server.bodies()[1]  # after the ingestion's embeddings request
        assert first["tools"] == [
            {
                "type": "function",
                "function": {
                    "name": "kb_search",
                    "description": "Search kb: Office notes",
                    "parameters": {
                        "type": "object",
                        "properties": {"query": {"type": "string"}},
                        "required": ["query"],
                        "additionalProperties": False,
                    },
                },
            }
        ]


def test_a_second_run_embeds_nothing_and_reingest_embeds_again(tmp_path: Path) -> None:
    with FakeModelServer(agent_script) as server:
        cases = f"  - input: {QUESTION}\n"
        agent = write(tmp_path, {"agent.yaml": agent_yaml(server.url, KB, cases), **documents()})
        assert run_suite(agent)[0] == 0
        first = embedding_requests(server)
        # Nine small files: one batch for the documents, one request for the query.
        assert first == 2
        assert run_suite(agent)[0] == 0
        assert embedding_requests(server) == first  # all from the cache
        assert run_suite(agent, "--reingest")[0] == 0
        assert embedding_requests(server) == first + 2
        # `holodeck test run`'s names for it: --force-ingest, -f.
        assert run_suite(agent, "--force-ingest")[0] == 0
        assert run_suite(agent, "-f")[0] == 0
        assert embedding_requests(server) == first + 6
        assert (tmp_path / ".holodeck" / "cache" / "embeddings.sqlite").is_file()


def test_an_empty_search_says_so(tmp_path: Path) -> None:
    with FakeModelServer(agent_script) as server:
        tools = KB + "    min_similarity_score: 0.99\n"
        cases = f"  - input: {QUESTION}\n"
        agent = write(tmp_path, {"agent.yaml": agent_yaml(server.url, tools, cases), **documents()})
        _code, report, _ = run_suite(agent)
        [call] = report["results"][0]["tool_invocations"]
        assert call["result"] == f"No relevant results found for query: {QUESTION}"
        assert report["results"][0]["agent_response"] == "I do not know."


CLOCK = """
  - name: clock
    type: function
    description: The time
    file: clock.py
    function: now
"""
FAITHFULNESS = """
evaluations:
  model: {provider: openai, name: judge-model, endpoint: "URL"}
  metrics:
    - {type: rag, metric_type: faithfulness}
"""


def judged_prompts(server: FakeModelServer) -> list[str]:
    return [last_user_text(b) for b in server.bodies() if b.get("model") == "judge-model"]


def test_faithfulness_judges_the_retrieved_chunks_accumulated_over_turns(tmp_path: Path) -> None:
    with FakeModelServer(agent_script) as server:
        cases = """
  - name: accumulated
    turns:
      - input: Hello
      - input: What time is it, and what is the vault code?
      - input: Thanks
      - input: Any other notes?
        retrieval_context: ["A passage written in the suite."]
"""
        metrics = FAITHFULNESS.replace("URL", server.url)
        files = {
            "agent.yaml": agent_yaml(server.url, KB + CLOCK, cases, metrics),
            "clock.py": "def now():\n    return 'CLOCK-RESULT 10:42'\n",
            **documents(),
        }
        code, report, err = run_suite(write(tmp_path, files))
        assert err == ""
        by_turn = [[m["metric_name"] for m in t["metric_results"]] for t in turns(report)]
        # Turn 0 retrieved nothing and has no retrieval_context: faithfulness does not run.
        assert by_turn == [[], ["faithfulness"], ["faithfulness"], ["faithfulness"]]
        turn1 = turns(report)[1]
        assert [c["name"] for c in turn1["tool_invocations"]] == ["kb_search", "clock"]
        prompts = judged_prompts(server)
        assert len(prompts) == 3
        retrieved = turn1["tool_invocations"][0]["result"]
        # Turns 1 and 2 see the chunk retrieved in turn 1, never the clock's result.
        for prompt in prompts[:2]:
            assert retrieved in prompt
            assert "CLOCK-RESULT" not in prompt
        # Turn 3's own retrieval_context replaces what was retrieved.
        assert "A passage written in the suite." in prompts[2]
        assert retrieved not in prompts[2]
        assert code == 0


def test_record_then_replay_needs_no_embeddings_service(tmp_path: Path) -> None:
    recording = tmp_path / "replay.jsonl"
    with FakeModelServer(agent_script) as server:
        cases = f"  - turns:\n      - input: {QUESTION}\n      - input: Thanks\n"
        metrics = FAITHFULNESS.replace("URL", server.url)
        agent = write(
            tmp_path, {"agent.yaml": agent_yaml(server.url, KB, cases, metrics), **documents()}
        )
        code, recorded, _ = run_suite(agent, "--record", recording)
        assert code == 0
    lines = [json.loads(line) for line in recording.read_text().splitlines()]
    assert lines[0]["reply"]["retrieval"] == [lines[0]["reply"]["tool_invocations"][0]["result"]]
    # The service is gone: the replay answers turns, tools and judges from the file.
    code, replayed, err = run_suite(agent, "--replay", recording)
    assert (code, err) == (0, "")
    # Both turns were judged on the retrieved chunk, live and replayed alike.
    assert [[m["metric_name"] for m in t["metric_results"]] for t in turns(replayed)] == [
        ["faithfulness"],
        ["faithfulness"],
    ]
    assert strip_timings(replayed["results"]) == strip_timings(recorded["results"])


CHROMA_DOWN = "Could not connect to a Chroma server. Are you sure it is running?"


@pytest.mark.parametrize(
    ("database", "message"),
    [
        (
            "{provider: pinecone, connection_string: pc-123}",
            "database provider 'pinecone' is not supported by this runner",
        ),
        (
            "{provider: postgres, connection_string: 'postgresql://x@127.0.0.1:9/db'}",
            "postgres: OperationalError",
        ),
        ("unreachable", "postgres: OperationalError"),  # named in config.yaml
        # A server is named by host and port (the connection string is a secret, masked
        # whole), with where the database was configured.
        (
            "{provider: chromadb, connection_string: 'http://127.0.0.1:9'}",
            f"chromadb at 127.0.0.1:9: ValueError: {CHROMA_DOWN}; "
            "the database is set in the agent file\n",
        ),
        (
            "shared_chroma",
            f"chromadb at 127.0.0.1:9: ValueError: {CHROMA_DOWN}; "
            "the database is vector store 'shared_chroma' of config.yaml\n",
        ),
    ],
    ids=["pinecone", "postgres-inline", "postgres-by-name", "chroma-inline", "chroma-by-name"],
)
def test_a_store_that_cannot_be_had_stops_the_run_before_any_call(
    database: str, message: str, tmp_path: Path
) -> None:
    with FakeModelServer(agent_script) as server:
        tools = KB + f"    database: {database}\n"
        cases = f"  - input: {QUESTION}\n"
        config = (
            "vectorstores:\n  unreachable:\n    provider: postgres\n"
            "    connection_string: postgresql://x@127.0.0.1:9/db\n"
            "  shared_chroma:\n    provider: chromadb\n"
            "    connection_string: http://reader:s3cret-pass@127.0.0.1:9\n"
        )
        files = {
            "agent.yaml": agent_yaml(server.url, tools, cases),
            "config.yaml": config,
            **documents(),
        }
        agent = write(tmp_path, files)
        code, report, err = run_suite(agent)
        assert (code, report) == (2, {})
        assert err.startswith(f"{agent}:6: error: tool 'kb' did not start: ")
        assert message in err
        assert not [b for b in server.bodies() if "messages" in b]  # no model call


def test_a_missing_extra_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "qdrant_client" else real(name, *a),
    )
    with FakeModelServer(agent_script) as server:
        tools = KB + "    database: {provider: qdrant, connection_string: ':memory:'}\n"
        cases = f"  - input: {QUESTION}\n"
        agent = write(tmp_path, {"agent.yaml": agent_yaml(server.url, tools, cases), **documents()})
        code, _, err = run_suite(agent)
    assert code == 2
    assert err == (
        f"{agent}:6: error: tool 'kb' did not start: the qdrant store needs qdrant_client, "
        "which is not installed: pip install -e '.[qdrant]' in a clone of holodeck-lsp "
        "(once it is on PyPI: pip install 'holodeck-lsp[qdrant]')\n"
    )


def test_structured_records_come_back_with_their_metadata(tmp_path: Path) -> None:
    records = (
        '{"items": ['
        '{"sku": "A1", "title": "Desk lamp", "text": "Warm light, 3 brightness levels", '
        '"price": 25},'
        '{"sku": "B2", "title": "Vault", "text": "The vault access code is 7319.", "price": 900}'
        "]}"
    )
    with FakeModelServer(agent_script) as server:
        tools = """
  - name: kb
    type: vectorstore
    description: Products
    source: products.json
    record_path: items
    id_field: sku
    vector_field: [title, text]
    field_separator: ": "
    meta_fields: [price]
    top_k: 1
"""
        cases = f"  - input: {QUESTION}\n"
        files = {"agent.yaml": agent_yaml(server.url, tools, cases), "products.json": records}
        code, report, err = run_suite(write(tmp_path, files))
    assert (code, err) == (0, "")
    [call] = report["results"][0]["tool_invocations"]
    assert re.fullmatch(
        r"Found 1 result\(s\):\n\n\[1\] ID: B2 \| Score: 0\.\d\d\n"
        r"Content: Vault: The vault access code is 7319\.\nMetadata: price: 900",
        call["result"],
    ), call["result"]


def test_parallel_test_cases_share_one_ingested_store(tmp_path: Path) -> None:
    with FakeModelServer(agent_script) as server:
        cases = "".join(f"  - name: case {i}\n    input: {QUESTION}\n" for i in range(6))
        agent = write(tmp_path, {"agent.yaml": agent_yaml(server.url, KB, cases), **documents()})
        code, report, err = run_suite(agent, "--parallel", "4")
        assert (code, err) == (0, "")
        answers = {r["agent_response"] for r in report["results"]}
        assert answers == {FACT}
        # One ingestion for the run, and the one query embedded once then cached.
        assert embedding_requests(server) == 2


@pytest.mark.slow
def test_the_planted_fact_through_database_servers(tmp_path: Path) -> None:
    """The same agent with its vectors in a PostgreSQL+pgvector and a ChromaDB server,
    both started here on 127.0.0.1."""
    import sys

    from tests.runner.services import chroma_server, postgres_server

    with (
        FakeModelServer(agent_script) as server,
        postgres_server() as postgres,
        chroma_server(Path(sys.executable).parent / "chroma") as chroma,
    ):
        for name, database in [
            ("postgres", f"{{provider: postgres, connection_string: '{postgres}'}}"),
            ("chroma", f"{{provider: chromadb, connection_string: '{chroma}'}}"),
        ]:
            folder = tmp_path / name
            tools = KB + f"    database: {database}\n"
            cases = f"  - input: {QUESTION}\n"
            agent = write(
                folder, {"agent.yaml": agent_yaml(server.url, tools, cases), **documents()}
            )
            code, report, err = run_suite(agent)
            assert (code, err) == (0, ""), name
            assert report["results"][0]["agent_response"] == FACT, name
