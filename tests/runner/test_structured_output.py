"""What `run` sends and how it judges the reply, as `holodeck test` does: `response_format`
as structured output (inline or from a file) and the reply checked against it; reasoning
models; function tools' schemas; an empty reply graded."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO
from tests.runner.fake_model import FakeModelServer, Reply
from tests.runner.helpers import run_suite, write

TICKET_ROUTING = REPO / "tests/data/corpus/real/holodeck-samples/ticket-routing/openai"
TICKET = (
    "I was charged twice for my subscription last month. Order #12345. "
    "Please refund immediately."
)
ROUTED = {
    "category": "billing",
    "urgency": "high",
    "routing_department": "Billing",
    "confidence_score": 0.9,
    "reasoning": "A double charge.",
}


def _ticket_routing(tmp_path: Path, url: str) -> Path:
    """The corpus's ticket-routing agent as a user would have it: its instructions and its
    category records beside it, its vector store on a local Qdrant (no server)."""
    folder = tmp_path / "ticket-routing"
    shutil.copytree(TICKET_ROUTING, folder)
    config = (folder / "config.yaml").read_text(encoding="utf-8")
    config = config.replace(
        "    provider: chromadb\n    connection_string: http://localhost:8000\n",
        "    provider: qdrant\n    connection_string: ':memory:'\n",
    )
    (folder / "config.yaml").write_text(config, encoding="utf-8")
    records = [
        {
            "id": "billing",
            "content": "Charges, refunds, invoices.",
            "name": "Billing",
            "routing_department": "Billing",
            "sla_hours": 4,
            "keywords": "refund",
        }
    ]
    write(
        folder,
        {
            "instructions/system-prompt.md": "Classify the ticket.\n",
            "data/ticket_categories.json": json.dumps(records),
        },
    )
    agent = folder / "agent.yaml"
    text = agent.read_text(encoding="utf-8").replace("${OPENAI_API_KEY}", "sk-test")
    agent.write_text(text, encoding="utf-8")
    return agent


def _agent_requests(server: FakeModelServer) -> list[dict[str, Any]]:
    return [b for p, _, b in server.requests if p.endswith("/chat/completions") and "tools" in b]


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        (json.dumps(ROUTED), None),
        (
            "Billing, high urgency.",
            "Agent invocation error: OpenAI Agents run failed: ModelBehaviorError: Output is "
            "not valid JSON: Expecting value: line 1 column 1 (char 0)",
        ),
        (
            json.dumps({**ROUTED, "urgency": "soon"}),
            "Agent invocation error: OpenAI Agents run failed: ModelBehaviorError: Output does "
            "not match response_format schema: 'soon' is not one of "
            "['critical', 'high', 'medium', 'low']",
        ),
    ],
    ids=["follows-the-schema", "plain-text", "breaks-the-schema"],
)
def test_ticket_routing_sends_its_schema_and_is_held_to_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reply: str, error: str | None
) -> None:
    with FakeModelServer(lambda path, body: Reply(reply)) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        agent = _ticket_routing(tmp_path, server.url)
        _code, report, _err = run_suite(agent, "--case", "0")
        first = _agent_requests(server)[0]
    assert first["response_format"] == {
        "type": "json_schema",
        "json_schema": {
            "name": "final_output",
            "schema": _corpus_schema(),
            "strict": True,  # the schema qualifies: closed, every property required
        },
    }
    assert (first["temperature"], first["max_tokens"]) == (0.1, 1000)
    [result] = report["results"]
    assert result["test_input"] == TICKET
    if error is None:
        assert result["agent_response"] == json.dumps(ROUTED)
        assert result["errors"] == []
    else:
        assert (result["agent_response"], result["errors"]) == (None, [error])


def _corpus_schema() -> dict[str, Any]:
    import yaml

    data = yaml.safe_load((TICKET_ROUTING / "agent.yaml").read_text(encoding="utf-8"))
    schema: dict[str, Any] = data["response_format"]
    return schema


def _first_request(tmp_path: Path, agent: str, reply: str = "ok", **files: str) -> dict[str, Any]:
    with FakeModelServer(lambda path, body: Reply(reply)) as server:
        write(tmp_path, {"agent.yaml": agent.replace("URL", server.url), **files})
        code, _report, err = run_suite(tmp_path / "agent.yaml")
        assert (code, err) in ((0, ""), (1, "")), err
        return server.bodies()[0]


def test_a_schema_file_beside_the_agent_is_sent_not_strict_when_it_does_not_qualify(
    tmp_path: Path,
) -> None:
    schema = {"type": "object", "properties": {"queue": {"type": "string"}}}
    body = _first_request(
        tmp_path,
        """
        name: a
        model: {provider: openai, name: gpt-4o, endpoint: "URL"}
        instructions: {inline: Route.}
        response_format: schemas/route.json
        test_cases: [{input: hi}]
        """,
        reply='{"queue": "billing"}',
        **{"schemas/route.json": json.dumps(schema)},
    )
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "final_output", "schema": schema, "strict": False},
    }


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("o3-mini", {"max_completion_tokens": 500, "reasoning_effort": "xhigh"}),
        ("GPT-5.4", {"max_completion_tokens": 500, "reasoning_effort": "xhigh"}),
        (
            "gpt-4o",
            {"temperature": 0.3, "top_p": 0.9, "max_tokens": 500, "reasoning_effort": "xhigh"},
        ),
    ],
)
def test_reasoning_models_get_no_sampling_and_their_token_limit(
    tmp_path: Path, name: str, expected: dict[str, Any]
) -> None:
    body = _first_request(
        tmp_path,
        f"""
        name: a
        model: {{provider: openai, name: {name}, endpoint: "URL", temperature: 0.3, top_p: 0.9,
                 max_tokens: 500}}
        instructions: {{inline: Route.}}
        openai: {{effort: max}}
        test_cases: [{{input: hi}}]
        """,
    )
    assert {k: v for k, v in body.items() if k not in ("model", "messages")} == expected


TOOLS = """
def lookup(q: str, n: int = 3, flag=None, items: list[str] | None = None):
    return "x"
"""


def test_function_tools_are_closed_as_holodeck_sends_them(tmp_path: Path) -> None:
    body = _first_request(
        tmp_path,
        """
        name: a
        model: {provider: openai, name: gpt-4o, endpoint: "URL"}
        instructions: {inline: Route.}
        tools:
          - {name: derived, type: function, file: tools.py, function: lookup, description: D}
          - name: declared
            type: function
            file: tools.py
            function: lookup
            description: Declared
            parameters:
              q: {type: string, description: the query}
              n: {type: integer, required: false}
        test_cases: [{input: hi}]
        """,
        **{"tools.py": TOOLS},
    )
    assert [t["function"]["parameters"] for t in body["tools"]] == [
        {
            "type": "object",
            "properties": {
                "q": {"type": "string"},
                "n": {"type": "integer"},
                "flag": {"type": "string"},
                "items": {"type": "string"},
            },
            "required": ["q"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {
                "q": {"type": "string", "description": "the query"},
                "n": {"type": "integer", "required": False},
            },
            "required": ["q", "n"],
            "additionalProperties": False,
        },
    ]


def test_an_empty_reply_is_graded_and_fails_equality(tmp_path: Path) -> None:
    with FakeModelServer(lambda path, body: Reply("")) as server:
        agent = write(
            tmp_path,
            {
                "agent.yaml": f"""
                name: a
                model: {{provider: openai, name: gpt-4o, endpoint: "{server.url}"}}
                instructions: {{inline: Answer.}}
                evaluations: {{metrics: [{{type: standard, metric: equality}}]}}
                test_cases: [{{name: silent, input: hi, ground_truth: x}}]
                """
            },
        )
        code, report, err = run_suite(agent)
    [result] = report["results"]
    [metric] = result["metric_results"]
    assert (code, err, result["agent_response"], result["passed"]) == (1, "", "", False)
    assert (metric["metric_name"], metric["score"], metric["passed"]) == ("equality", 0.0, False)


@pytest.mark.parametrize(
    ("answer", "response", "errors"),
    [
        ({"queue": "billing"}, '{"queue": "billing"}', []),
        (
            {"queue": 3},
            None,
            [
                "Agent invocation error: Structured output schema validation failed: "
                "3 is not of type 'string'"
            ],
        ),
    ],
    ids=["follows", "breaks"],
)
def test_anthropic_answers_through_the_structured_output_tool(
    tmp_path: Path, answer: dict[str, Any], response: str | None, errors: list[str]
) -> None:
    schema = {
        "type": "object",
        "properties": {"queue": {"type": "string"}},
        "required": ["queue"],
        "additionalProperties": False,
    }
    reply = Reply("Routing.", tool_calls=[("StructuredOutput", answer)])
    with FakeModelServer(lambda path, body: reply) as server:
        agent = write(
            tmp_path,
            {
                "agent.yaml": f"""
                name: a
                model: {{provider: anthropic, name: claude-sonnet-4-6, endpoint: "{server.root}"}}
                instructions: {{inline: Route.}}
                response_format: {json.dumps(schema)}
                test_cases: [{{input: hi}}]
                """
            },
        )
        _code, report, err = run_suite(agent)
        first = server.bodies()[0]
    assert first["tools"] == [
        {
            "name": "StructuredOutput",
            "description": "Give your final answer by calling this tool once, at the end, "
            "with the answer in the required structure.",
            "input_schema": schema,
        }
    ]
    [result] = report["results"]
    assert (err, result["agent_response"], result["errors"]) == ("", response, errors)
    assert result["tool_invocations"] == []  # the answer's channel, not a tool call


CLAUDE_TOOLS = '''
from typing import Annotated, Optional


def lookup(metric: str, year: int, scale: float = 1.0, note: Optional[str] = None,
           tags: list[int] = [], flag=False, extra: Annotated[bool, "ignored"] = True):
    return "ok"
'''


@pytest.mark.parametrize("provider", ["anthropic", "ollama"])
def test_claude_backed_agents_declare_tools_as_holodecks_claude_adapter(
    tmp_path: Path, provider: str
) -> None:
    """HoloDeck runs `anthropic` and `ollama` agents through the Claude Agent SDK, whose
    tool adapter (lib/backends/tool_adapters.py) cuts descriptions to 200 characters and
    builds a function's schema from its signature: every parameter required, the YAML
    `parameters` unread, no `additionalProperties`; a search tool takes `{query: str}`."""
    long = "Look a figure up in the filings. " * 8
    with FakeModelServer(lambda path, body: Reply("ok")) as server:
        agent = write(
            tmp_path,
            {
                "tools.py": CLAUDE_TOOLS,
                "notes.md": "# Notes\n\nBilling handles refunds.\n",
                "agent.yaml": f"""
                name: a
                model: {{provider: {provider}, name: m, endpoint: "{server.root}"}}
                embedding_provider: {{provider: openai, name: e, endpoint: "{server.url}"}}
                instructions: {{inline: Answer.}}
                tools:
                  - {{name: lookup, type: function, file: tools.py, function: lookup,
                     description: "{long}",
                     parameters: {{metric: {{type: string, description: Which figure}}}}}}
                  - {{name: notes, type: vectorstore, source: notes.md, description: "{long}"}}
                test_cases: [{{input: hi}}]
                """,
            },
        )
        code, _report, err = run_suite(agent, "--no-user-config")
        first = next(b for p, _, b in server.requests if not p.endswith("/embeddings"))
    assert code == 0, err
    wire = [t if provider == "anthropic" else t["function"] for t in first["tools"]]
    schemas = "input_schema" if provider == "anthropic" else "parameters"
    declared = {t["name"]: (t["description"], t[schemas]) for t in wire}
    cut = long[:197] + "..."
    assert declared == {
        "lookup": (
            cut,
            {
                "type": "object",
                "properties": {
                    "metric": {"type": "string"},
                    "year": {"type": "integer"},
                    "scale": {"type": "number"},
                    "note": {"type": "string"},
                    "tags": {"type": "array", "items": {"type": "integer"}},
                    "flag": {"type": "string"},
                    "extra": {"type": "boolean"},
                },
                "required": ["metric", "year", "scale", "note", "tags", "flag", "extra"],
            },
        ),
        "notes_search": (
            ("Search notes: " + long)[:197] + "...",
            {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
        ),
    }
