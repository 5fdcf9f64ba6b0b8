"""The agent sections outside the test suite: YAML in, the model's whole error list out.

Each expected verdict (accepted, or refused) is the one HoloDeck 0.7.1 gives for the
same section; the error lists are ours (more of them, at more precise places).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import TypeAdapter, ValidationError

from holodeck_lsp.models.claude import AGENT_DIR_CONTEXT_KEY, ClaudeConfig
from holodeck_lsp.models.deployment import DeploymentConfig
from holodeck_lsp.models.instructions import Instructions
from holodeck_lsp.models.llm import LLMProvider
from holodeck_lsp.models.observability import ObservabilityConfig
from holodeck_lsp.models.openai_config import OpenAIConfig
from holodeck_lsp.models.optimizer import OptimizerConfig
from holodeck_lsp.models.project_config import GlobalConfig
from holodeck_lsp.models.tools import DatabaseConfig, ToolUnion
from tests.conftest import CORPUS

ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")

Errors = list[tuple[str, tuple[Any, ...]]]

ADAPTERS: dict[str, TypeAdapter[Any]] = {
    "model": TypeAdapter(LLMProvider),
    "instructions": TypeAdapter(Instructions),
    "tools": TypeAdapter(list[ToolUnion]),
    "observability": TypeAdapter(ObservabilityConfig),
    "deployment": TypeAdapter(DeploymentConfig),
    "claude": TypeAdapter(ClaudeConfig),
    "openai": TypeAdapter(OpenAIConfig),
    "optimizer": TypeAdapter(OptimizerConfig),
    "config": TypeAdapter(GlobalConfig),
}


def errors(section: str, text: str, context: dict[str, Any] | None = None) -> Errors:
    """Validate one section written as YAML; return (type, loc) of every error."""
    try:
        ADAPTERS[section].validate_python(yaml.safe_load(text), context=context)
    except ValidationError as exc:
        return [(e["type"], e["loc"]) for e in exc.errors()]
    return []


def substitute_env(text: str) -> str:
    """Stand-in values for `${VAR}`s, each shaped like what its field expects."""

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        if name == "AZURE_SUBSCRIPTION_ID":
            return "00000000-0000-4000-8000-000000000000"
        if "ENDPOINT" in name or "URL" in name:
            return "https://example.test"
        return f"dummy-{name.lower()}"

    return ENV_REF.sub(value, text)


def _corpus_entries(kind: str) -> list[str]:
    index = json.loads((CORPUS / "index.json").read_text(encoding="utf-8"))
    return [entry["file"] for entry in index if entry["kind"] == kind]


def _load(path: Path) -> Any:
    return yaml.safe_load(substitute_env(path.read_text(encoding="utf-8")))


# --- The real corpus: every section HoloDeck accepted is accepted ------------------


@pytest.mark.parametrize("name", _corpus_entries("agent"))
def test_corpus_agent_sections_are_accepted(name: str) -> None:
    agent = _load(CORPUS / name)
    sections = {
        "model": agent.get("model"),
        "embedding_provider": agent.get("embedding_provider"),
        "instructions": agent.get("instructions"),
        "tools": agent.get("tools"),
        "observability": agent.get("observability"),
        "deployment": agent.get("deployment"),
        "claude": agent.get("claude"),
        "openai": agent.get("openai"),
        "optimizer": (agent.get("evaluations") or {}).get("optimizer"),
    }
    adapter_of = {"embedding_provider": "model"}
    found: dict[str, Errors] = {}
    for key, data in sections.items():
        if data is None:
            continue
        try:
            ADAPTERS[adapter_of.get(key, key)].validate_python(data)
        except ValidationError as exc:
            found[key] = [(e["type"], e["loc"]) for e in exc.errors()]
    assert found == {}


@pytest.mark.parametrize(
    "name", [str(p.relative_to(CORPUS)) for p in sorted(CORPUS.rglob("config.y*ml"))]
)
def test_corpus_config_files_are_accepted(name: str) -> None:
    try:
        GlobalConfig.model_validate(_load(CORPUS / name))
    except ValidationError as exc:
        pytest.fail(str(exc))


def test_the_corpus_is_there() -> None:
    assert len(_corpus_entries("agent")) >= 60
    assert len(list(CORPUS.rglob("config.y*ml"))) >= 10


# --- model: / embedding_provider: ---------------------------------------------------

MODEL_CASES: list[tuple[str, Errors]] = [
    ("provider: gemini\nname: x", [("enum", ("provider",))]),
    ("name: gpt-4o", [("missing", ("provider",))]),
    ("provider: azure_openai\nname: gpt-4o", [("value_error", ("endpoint",))]),
    ("provider: azure_openai\nname: gpt-4o\nendpoint: ' '", [("value_error", ("endpoint",))]),
    (
        "provider: openai\nname: ' '\ntemperature: 2.5\nmax_tokens: 0\ntop_p: -0.1\nmodel: x",
        [
            ("hl_empty_string", ("name",)),
            ("less_than_equal", ("temperature",)),
            ("greater_than", ("max_tokens",)),
            ("greater_than_equal", ("top_p",)),
            ("extra_forbidden", ("model",)),
        ],
    ),
    ("provider: anthropic\nname: c\nauth_provider: password", [("enum", ("auth_provider",))]),
    # Lax mode, as the loader: numeric strings, `true` as 1, and a NaN temperature pass.
    ("provider: openai\nname: g\ntemperature: '0.5'\nmax_tokens: true", []),
    ("provider: openai\nname: g\ntemperature: .nan", []),
    ("provider: ollama\nname: llama3\nauth_provider: custom", []),
]


@pytest.mark.parametrize(("text", "expected"), MODEL_CASES)
def test_model_block(text: str, expected: Errors) -> None:
    assert errors("model", text) == expected


# --- instructions: -------------------------------------------------------------------

INSTRUCTIONS_CASES: list[tuple[str, Errors]] = [
    ("{}", [("hl_requires_one_of", ())]),
    ("file: prompt.md\ninline: Be brief.", [("hl_mutually_exclusive", ("inline",))]),
    ("inline: '   '", [("hl_empty_string", ("inline",))]),
    ("file: ''\ninline: Be brief.", [("hl_empty_string", ("file",))]),
    ("text: Be brief.", [("extra_forbidden", ("text",))]),
    ("Be brief.", [("model_type", ())]),
    ("file: prompt.md\ninline: null", []),
]


@pytest.mark.parametrize(("text", "expected"), INSTRUCTIONS_CASES)
def test_instructions(text: str, expected: Errors) -> None:
    assert errors("instructions", text) == expected


# --- tools: ---------------------------------------------------------------------------

TOOLS_CASES: list[tuple[str, Errors]] = [
    ("- {name: kb, description: d}", [("union_tag_invalid", (0,))]),
    ("- {name: kb, description: d, type: plugin}", [("union_tag_invalid", (0,))]),
    ("- {name: kb, description: d, type: null}", [("union_tag_not_found", (0,))]),
    (
        "- name: my-kb\n  description: d\n  type: vectorstore\n  source: ftp://host/docs\n"
        "  top_k: 0\n  vector_field: text",
        [
            ("string_pattern_mismatch", (0, "vectorstore", "name")),
            ("value_error", (0, "vectorstore", "source")),
            ("greater_than_equal", (0, "vectorstore", "top_k")),
            ("value_error", (0, "vectorstore", "id_field")),
        ],
    ),
    (
        "- {name: kb, description: d, type: vectorstore, source: data,\n"
        "   database: {provider: mongo}}",
        [
            ("literal_error", (0, "vectorstore", "database", "DatabaseConfig", "provider")),
            ("string_type", (0, "vectorstore", "database", "str")),
        ],
    ),
    (
        "- {name: kb, description: d, type: vectorstore, source: ' ', database: ''}",
        [
            ("hl_empty_string", (0, "vectorstore", "source")),
            ("hl_empty_string", (0, "vectorstore", "database")),
        ],
    ),
    ("- {name: m, description: d, type: mcp}", [("value_error", (0, "mcp", "command"))]),
    ("- {name: m, description: d, type: mcp, command: bash}", [("enum", (0, "mcp", "command"))]),
    (
        "- {name: m, description: d, type: mcp, transport: sse}\n"
        "- {name: n, description: d, type: mcp, transport: http, url: 'http://example.com/mcp'}",
        [("value_error", (0, "mcp", "url")), ("value_error", (1, "mcp", "url"))],
    ),
    (
        "- {name: p, description: d, type: prompt, template: Hi, file: p.txt, parameters: {}}",
        [
            ("hl_mutually_exclusive", (0, "prompt", "file")),
            ("too_short", (0, "prompt", "parameters")),
        ],
    ),
    (
        "- {name: p, description: d, type: prompt, parameters: {x: {type: string}}}",
        [("hl_requires_one_of", (0, "prompt"))],
    ),
    (
        "- {name: f, description: d, type: function, file: tools.py}",
        [("missing", (0, "function", "function"))],
    ),
    (
        "- name: h\n  description: d\n  type: hierarchical_document\n  source: docs\n"
        "  semantic_weight: 0.5\n  keyword_weight: 0.3\n  exact_weight: 0.1",
        [("value_error", (0, "hierarchical_document"))],
    ),
    (
        "- name: h\n  description: d\n  type: hierarchical_document\n  source: docs\n"
        "  enable_reranking: true\n  keyword_index: {provider: opensearch}",
        [
            ("value_error", (0, "hierarchical_document", "reranker_model")),
            ("value_error", (0, "hierarchical_document", "keyword_index", "endpoint")),
            ("value_error", (0, "hierarchical_document", "keyword_index", "index_name")),
        ],
    ),
    # Extra keys are allowed exactly where HoloDeck allows them: database and keyword index.
    (
        "- {name: kb, description: d, type: vectorstore, source: data, "
        "database: {provider: qdrant, url: 'http://q:6333', collection: c}}\n"
        "- {name: h, description: d, type: hierarchical_document, source: docs, "
        "search_mode: keyword, semantic_weight: 0, keyword_weight: 0, exact_weight: 0, "
        "keyword_index: {provider: in-memory, shards: 2}, database: shared_store}\n"
        "- {name: h2, description: d, type: hierarchical_document, source: docs, database: ''}\n"
        "- {name: m, description: d, type: mcp, transport: http, url: 'http://localhost:3000'}",
        [],
    ),
]


@pytest.mark.parametrize(("text", "expected"), TOOLS_CASES)
def test_tools(text: str, expected: Errors) -> None:
    assert errors("tools", text) == expected


# --- observability: ----------------------------------------------------------------------

OBSERVABILITY_CASES: list[tuple[str, Errors]] = [
    (
        "traces: {redaction_patterns: ['\\d{4}', '[unclosed'], sample_rate: 1.5}",
        [
            ("less_than_equal", ("traces", "sample_rate")),
            ("hl_regex_compile", ("traces", "redaction_patterns", 1)),
        ],
    ),
    ("traces: {max_queue_size: 100}", [("value_error", ("traces",))]),
    (
        "exporters: {azure_monitor: {enabled: true}, prometheus: {port: 80}}",
        [
            ("greater_than_equal", ("exporters", "prometheus", "port")),
            ("value_error", ("exporters", "azure_monitor", "connection_string")),
        ],
    ),
    ("logs: {level: info}", [("enum", ("logs", "level"))]),
    ("enabled: true\nexporters: {jaeger: {}}", [("extra_forbidden", ("exporters", "jaeger"))]),
    ("enabled: true\nexporters: {otlp: {endpoint: 'http://collector:4317'}}", []),
]


@pytest.mark.parametrize(("text", "expected"), OBSERVABILITY_CASES)
def test_observability(text: str, expected: Errors) -> None:
    assert errors("observability", text) == expected


# --- deployment: --------------------------------------------------------------------------

REGISTRY = "registry: {url: ghcr.io, repository: org/agent}\n"
DEPLOYMENT_CASES: list[tuple[str, Errors]] = [
    (
        REGISTRY + "target: {provider: aws, gcp: {project_id: my-project}}",
        [("value_error", ("target", "aws")), ("value_error", ("target", "gcp"))],
    ),
    (
        "registry: {url: ghcr.io, repository: Org/Agent, tag_strategy: custom}\n"
        "target: {provider: gcp, gcp: {project_id: my-project, memory: 1G}}",
        [
            ("value_error", ("registry", "repository")),
            ("value_error", ("registry", "custom_tag")),
            ("value_error", ("target", "gcp", "memory")),
        ],
    ),
    (
        REGISTRY + "target: {provider: azure, azure: {subscription_id: nope, "
        "resource_group: rg, cpu: 3}}",
        [
            ("value_error", ("target", "azure", "subscription_id")),
            ("value_error", ("target", "azure", "cpu")),
        ],
    ),
    (
        REGISTRY + "target: {provider: aws, aws: {region: us-east-1, auto_scaling_min: 6}}",
        [("value_error", ("target", "aws"))],
    ),
    (
        "target: {provider: aws, aws: {region: r}}\nport: 0",
        [
            ("missing", ("registry",)),
            ("greater_than_equal", ("port",)),
        ],
    ),
    (REGISTRY + "target: {provider: gcp, gcp: {project_id: my-project}}\nprotocol: ag-ui", []),
]


@pytest.mark.parametrize(("text", "expected"), DEPLOYMENT_CASES)
def test_deployment(text: str, expected: Errors) -> None:
    assert errors("deployment", text) == expected


# --- claude: / openai: ----------------------------------------------------------------------

CLAUDE_CASES: list[tuple[str, Errors]] = [
    ("subagents: {max_parallel: 2}", [("extra_forbidden", ("subagents",))]),
    ("setting_sources: [all, user]", [("hl_mutually_exclusive", ("setting_sources",))]),
    (
        "agents:\n  researcher: {description: Finds facts}\n"
        "  writer: {description: Writes, prompt: Write., model: claude-haiku-4-5}",
        [
            ("hl_requires_one_of", ("agents", "researcher")),
            ("literal_error", ("agents", "writer", "model")),
        ],
    ),
    (
        "agents:\n  a: {description: ' ', prompt: p, prompt_file: p.md}",
        [
            ("hl_empty_string", ("agents", "a", "description")),
            ("hl_mutually_exclusive", ("agents", "a", "prompt_file")),
        ],
    ),
    # Only real booleans here: these two flags are strict.
    (
        "disable_default_hooks: 1\ndisable_subprocess_env_scrub: 'true'",
        [
            ("bool_type", ("disable_default_hooks",)),
            ("bool_type", ("disable_subprocess_env_scrub",)),
        ],
    ),
    (
        "max_budget_usd: 0\nextended_thinking: {enabled: true, budget_tokens: 500}",
        [
            ("greater_than_equal", ("extended_thinking", "budget_tokens")),
            ("greater_than", ("max_budget_usd",)),
        ],
    ),
    ("permission_mode: acceptAll\nagents: {}\nsetting_sources: [all]\nweb_search: yes", []),
]


@pytest.mark.parametrize(("text", "expected"), CLAUDE_CASES)
def test_claude(text: str, expected: Errors) -> None:
    assert errors("claude", text) == expected


def test_subagent_prompt_file_is_checked_against_the_agent_folder(tmp_path: Path) -> None:
    (tmp_path / "writer.md").write_text("You write.", encoding="utf-8")
    (tmp_path / "blank.md").write_text("  \n", encoding="utf-8")
    text = (
        "agents:\n"
        "  writer: {description: Writes, prompt_file: writer.md}\n"
        "  blank: {description: Blank, prompt_file: blank.md}\n"
        "  gone: {description: Gone, prompt_file: missing.md}\n"
    )
    context = {AGENT_DIR_CONTEXT_KEY: str(tmp_path)}
    assert errors("claude", text, context) == [
        ("value_error", ("agents", "blank", "prompt_file")),
        ("value_error", ("agents", "gone", "prompt_file")),
    ]
    # Without the agent's folder there is nothing to check the path against.
    assert errors("claude", text) == []


OPENAI_CASES: list[tuple[str, Errors]] = [
    (
        "max_turns: 0\neffort: extreme\nsession_memory_estimate_mib: 4096\nhooks: {}",
        [
            ("less_than_equal", ("session_memory_estimate_mib",)),
            ("greater_than_equal", ("max_turns",)),
            ("literal_error", ("effort",)),
            ("extra_forbidden", ("hooks",)),
        ],
    ),
    ("permissions: {allowed_tools: search}", [("list_type", ("permissions", "allowed_tools"))]),
    ("max_turns: 5\npermissions: {disallowed_tools: [shell]}\neffort: max", []),
]


@pytest.mark.parametrize(("text", "expected"), OPENAI_CASES)
def test_openai(text: str, expected: Errors) -> None:
    assert errors("openai", text) == expected


# --- evaluations.optimizer ---------------------------------------------------------------------

OPTIMIZER_CASES: list[tuple[str, Errors]] = [
    ("loss: {}", [("too_short", ("loss",))]),
    ("axes: {}", [("missing", ("loss",))]),
    (
        "loss: {relevance: 0, coherence: -1}",
        [
            ("greater_than", ("loss", "relevance")),
            ("greater_than", ("loss", "coherence")),
        ],
    ),
    (
        "loss: {relevance: 1}\naxes:\n  numeric:\n"
        "    - {path: model.temperature, type: float, range: [1.0, 0.2]}\n"
        "    - {path: 'tools[name=kb].top_k', type: int, range: [1, 5, 10]}\n"
        "    - {path: model.name, type: categorical, range: []}\n"
        "    - {path: x, type: int, range: [1, {a: 1}]}\n"
        "  textual:\n    - {path: ' ', max_chars: 0}",
        [
            ("value_error", ("axes", "numeric", 0, "range")),
            ("value_error", ("axes", "numeric", 1, "range")),
            ("value_error", ("axes", "numeric", 2, "range")),
            ("value_error", ("axes", "numeric", 3, "range")),
            ("hl_empty_string", ("axes", "textual", 0, "path")),
            ("greater_than", ("axes", "textual", 0, "max_chars")),
        ],
    ),
    (
        "loss: {relevance: 1}\nnumeric_phase: {max_trials: 3}",
        [
            ("missing", ("numeric_phase", "patience")),
        ],
    ),
    ("loss: {relevance: 1, faithfulness: .nan}\nmin_delta: 0", []),
]


@pytest.mark.parametrize(("text", "expected"), OPTIMIZER_CASES)
def test_optimizer(text: str, expected: Errors) -> None:
    assert errors("optimizer", text) == expected


# --- config.yaml ---------------------------------------------------------------------------------

CONFIG_CASES: list[tuple[str, Errors]] = [
    (
        "providers:\n  azure: {provider: azure_openai, name: gpt-4o}\n"
        "vectorstores:\n  pg: {provider: ' ', connection_string: 5432}\n"
        "mcp_servers:\n  - {name: fs, description: files, type: function, command: npx}\n"
        "agents: {}",
        [
            ("value_error", ("providers", "azure", "endpoint")),
            ("hl_empty_string", ("vectorstores", "pg", "provider")),
            ("string_type", ("vectorstores", "pg", "connection_string")),
            ("literal_error", ("mcp_servers", 0, "type")),
            ("extra_forbidden", ("agents",)),
        ],
    ),
    (
        "execution: {parallel_test_cases: 0}",
        [
            ("greater_than_equal", ("execution", "parallel_test_cases")),
        ],
    ),
    (
        "deployment: {registry: {url: ghcr.io, repository: a}}",
        [
            ("missing", ("deployment", "target")),
        ],
    ),
    (
        "providers:\n  openai: {provider: openai, name: gpt-4o, api_key: sk}\n"
        "vectorstores:\n  pg: {provider: postgresql, connection_string: 'postgresql://h/db'}\n"
        "mcp_servers:\n  - {name: fs, description: files, command: npx, args: [-y, server]}\n"
        "execution: {llm_timeout: 60}",
        [],
    ),
]


@pytest.mark.parametrize(("text", "expected"), CONFIG_CASES)
def test_config_file(text: str, expected: Errors) -> None:
    assert errors("config", text) == expected


def test_a_named_vector_store_becomes_a_tool_database() -> None:
    config = GlobalConfig.model_validate(
        yaml.safe_load(
            "vectorstores:\n"
            "  pg: {provider: PostgreSQL, connection_string: 'postgresql://h/db', "
            "options: {schema: rag}}\n"
            "  cache: {provider: redis, connection_string: 'redis://h'}\n"
        )
    )
    stores = config.vectorstores or {}
    database = TypeAdapter(DatabaseConfig)
    assert stores["pg"].as_database() == {
        "provider": "postgres",
        "connection_string": "postgresql://h/db",
        "schema": "rag",
    }
    database.validate_python(stores["pg"].as_database())
    # A store no vector store tool supports refuses the agent that references it.
    with pytest.raises(ValidationError) as caught:
        database.validate_python(stores["cache"].as_database())
    assert [(e["type"], e["loc"]) for e in caught.value.errors()] == [
        ("literal_error", ("provider",))
    ]
