"""Every field of the agent file: what `holodeck test` (HoloDeck 0.7.1) does with it, and
what `run` does. The one home of that fact: docs/runner.md's table is rendered from
`ROWS` (`HOLODECK_UPDATE_FIXTURES=1 pytest tests/runner/test_field_table.py` writes it), a
test walks the models and fails on a field no row covers, and `unapplied.py` warns at the
start of a run about each field `holodeck test` would act on and `run` does not.

HoloDeck file references are to holodeck-ai 0.7.1's package (`holodeck/...`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from holodeck_lsp.models.agent import Agent
from holodeck_lsp.models.claude import ClaudeConfig
from holodeck_lsp.models.tools import HierarchicalDocumentTool


class Status(str, Enum):
    APPLIED = "applied"  # run does what `holodeck test` does
    DIFFERS = "applied differently"  # both use it; the row says how they differ
    NOT_APPLIED = "not applied"  # `holodeck test` uses it, run does not: warned at start
    UNUSED = "used by neither"  # `holodeck test` does not read it either
    NESTED = "per field"  # a section whose own fields have rows below


OPENAI_BACKEND = frozenset({"openai", "azure_openai"})
# HoloDeck's Claude Agent SDK backend also serves `ollama` (lib/backends/selector.py).
CLAUDE_BACKEND = frozenset({"anthropic", "ollama"})

# (the model object holding the fields, the agent's provider) -> whether `holodeck test`
# acts on the row's fields there.
Acts = Callable[[Any, str], bool]


@dataclass(frozen=True)
class Row:
    model: str  # the Pydantic class in holodeck_lsp/models/
    fields: tuple[str, ...]
    status: Status
    holodeck: str  # what `holodeck test` does
    run: str  # what `run` does; for NOT_APPLIED, why not (it is the warning's text)
    # NOT_APPLIED only: the agent providers whose `holodeck test` backend reads it.
    providers: frozenset[str] | None = None
    # NOT_APPLIED only: when `holodeck test` acts on the fields; by default when one of
    # them is written with a value other than its default.
    acts: Acts | None = None


# Each takes the model its row names (`Row.model`); anything else is not acted on.
def _observability_on(owner: Any, _provider: str) -> bool:
    return isinstance(owner, Agent) and owner.observability is not None and (
        owner.observability.enabled
    )


def _thinks(owner: Any, _provider: str) -> bool:
    thinking = owner.extended_thinking if isinstance(owner, ClaudeConfig) else None
    return thinking is not None and thinking.enabled


def _shell(owner: Any, _provider: str) -> bool:
    bash = owner.bash if isinstance(owner, ClaudeConfig) else None
    return bash is not None and bash.enabled


def _writes_files(owner: Any, _provider: str) -> bool:
    files = owner.file_system if isinstance(owner, ClaudeConfig) else None
    return files is not None and (files.write or files.edit)


def _summarises_chunks(owner: Any, provider: str) -> bool:
    """HoloDeck writes chunk summaries with `context_model`, else, for Anthropic agents,
    with Claude (`lib/tool_initializer.py:_resolve_context_generator`); on by default."""
    return isinstance(owner, HierarchicalDocumentTool) and owner.contextual_embeddings and (
        owner.context_model is not None or provider == "anthropic"
    )


_NO_TELEMETRY = (
    "run exports no telemetry (traces, metrics, logs); the reports and verdicts are the "
    "same without it"
)
_DEPLOY = "read by `holodeck deploy` only"
_OPTIMIZE = "read by `holodeck test optimize` only"
_SERVE = "read by `holodeck serve` only (the concurrency of a served agent)"
_NO_BUILTINS = (
    "run gives the model only the agent's `tools:`; Claude Code's built-in tools "
    "(shell, files, web) are not offered"
)
_JUDGES = (
    "Judge models: the LLM-judged standard metrics always go to Azure AI evaluators "
    "(`endpoint`, `api_key`, `name` as the deployment; other fields unread, "
    "`lib/test_runner/executor.py:695-712`), G-Eval and RAG metrics to DeepEval "
    "through `provider`"
)

ROWS: tuple[Row, ...] = (
    # ---------------------------------------------------------------- the agent file
    Row("Agent", ("name",), Status.APPLIED,
        "The SDK agent's name and the trace workflow name; the report's `agent_name`.",
        "The report's `agent_name`."),
    Row("Agent", ("description", "author"), Status.UNUSED,
        "Not read by the test run (copied into the run record it stores).",
        "Not read."),
    Row("Agent", ("model",), Status.NESTED,
        "The agent's model.", "See `LLMProvider`."),
    Row("Agent", ("instructions",), Status.APPLIED,
        "The system prompt.", "The system prompt (see `Instructions`)."),
    Row("Agent", ("response_format",), Status.APPLIED,
        "Structured output: an inline JSON schema or a schema file, sent with each request; "
        "a reply that is not valid JSON for it fails "
        "(`lib/backends/openai_agents_backend.py:879`, `claude_backend.py:763`).",
        "Sent as the service's structured-output parameter, the reply checked against it."),
    Row("Agent", ("tools",), Status.NESTED,
        "The tools offered to the model.", "See each tool kind below."),
    Row("Agent", ("evaluations",), Status.NESTED,
        "The default metrics and judge model.", "See `EvaluationConfig`."),
    Row("Agent", ("test_cases",), Status.NESTED,
        "The suite.", "See `TestCaseModel`."),
    Row("Agent", ("test_cases_file",), Status.APPLIED,
        "Read relative to the agent file, `${VAR}` substituted, as the suite.",
        "The same."),
    Row("Agent", ("execution",), Status.NESTED,
        "Run settings; each field unset here is taken from `config.yaml`'s `execution:`.",
        "See `ExecutionConfig`."),
    Row("Agent", ("observability",), Status.NOT_APPLIED,
        "With `enabled: true`, OpenTelemetry replaces its logging: traces of the command, "
        "each test, each judge and each SDK call, metrics and logs, through the exporters "
        "(`cli/commands/test.py:216`).",
        _NO_TELEMETRY, acts=_observability_on),
    Row("Agent", ("deployment",), Status.UNUSED, _DEPLOY.capitalize() + ".", "Not read."),
    Row("Agent", ("embedding_provider",), Status.APPLIED,
        "The model that embeds vector store and document sources when the agent's provider "
        "is `anthropic` (`lib/tool_initializer.py:228`).",
        "The same (see \"Vector stores\")."),
    Row("Agent", ("claude",), Status.NESTED,
        "Settings of the Claude Agent SDK backend (providers `anthropic`, `ollama`).",
        "See `ClaudeConfig`."),
    Row("Agent", ("openai",), Status.NESTED,
        "Settings of the OpenAI Agents SDK backend (providers `openai`, `azure_openai`).",
        "See `OpenAIConfig`."),
    # ---------------------------------------------------------------- models
    Row("LLMProvider", ("provider",), Status.DIFFERS,
        "`openai` and `azure_openai` run on the OpenAI Agents SDK (Responses API); "
        "`anthropic` and `ollama` on the Claude Agent SDK, which drives Claude Code's CLI "
        "(`lib/backends/selector.py`). " + _JUDGES + ".",
        "`openai`, `azure_openai` and `ollama` (its OpenAI-compatible API) through Chat "
        "Completions, `anthropic` through the Messages API; judges through the same "
        "backends, by their own provider. The request parity harness "
        "(`tests/differential/`) compares what both send."),
    Row("LLMProvider", ("name",), Status.APPLIED,
        "The model (Azure: the deployment).", "The same."),
    Row("LLMProvider", ("temperature", "top_p"), Status.DIFFERS,
        "OpenAI backend: sent, except to reasoning models (`o1`, `o3`, `o4`, `gpt-5` "
        "names); the Claude backend sends neither. Judges: DeepEval at temperature 0 "
        "(1.0 on Azure), Azure AI evaluators their own.",
        "Sent as configured, except to reasoning models; also to `anthropic`. Judges at "
        "temperature 0, `top_p` as configured."),
    Row("LLMProvider", ("max_tokens",), Status.DIFFERS,
        "OpenAI backend: the Responses API's `max_output_tokens`; the Claude backend does "
        "not send it. Judges: not sent.",
        "Chat Completions: `max_tokens` (`max_completion_tokens` for reasoning models); "
        "Messages API: `max_tokens` (1000 when unset, the API requires one); judges: sent."),
    Row("LLMProvider", ("endpoint",), Status.DIFFERS,
        "`azure_openai`: the resource, reached at `{endpoint}/openai/v1` (Responses API); "
        "`openai`: ignored (the SDK reads `OPENAI_BASE_URL`); Claude backend: the base URL "
        "only with `auth_provider: custom`. Standard judged metrics require it.",
        "The base URL of the service for every provider (see \"Backends\")."),
    Row("LLMProvider", ("api_key",), Status.APPLIED,
        "The key, else the provider's environment variable.", "The same."),
    Row("LLMProvider", ("api_version",), Status.DIFFERS,
        "`azure_openai`: sent as `api-version` only when set (the v1 surface needs none).",
        "`azure_openai`: the `api-version` of the deployment URL (`OPENAI_API_VERSION`, "
        "else `2024-10-21`)."),
    Row("LLMProvider", ("auth_provider",), Status.DIFFERS,
        "Claude backend: which credentials Claude Code uses (API key, OAuth token, "
        "Bedrock, Vertex, Foundry, a custom endpoint's token).",
        "`api_key` only; another value stops the run (exit 2)."),
    Row("Instructions", ("file",), Status.APPLIED,
        "The system prompt, read relative to the agent file.", "The same."),
    Row("Instructions", ("inline",), Status.APPLIED, "The system prompt.", "The same."),
    # ---------------------------------------------------------------- tools
    Row("VectorstoreTool", ("name", "description"), Status.APPLIED,
        "A function `{name}_search` described `Search {name}: {description}`, taking "
        "`query`; the Claude backend cuts the description to 200 characters "
        "(`lib/backends/tool_adapters.py`).", "The same."),
    Row("VectorstoreTool", ("type",), Status.APPLIED, "Selects the tool kind.", "The same."),
    Row("VectorstoreTool", ("defer_loading",), Status.UNUSED,
        "Not read by any backend.", "Not read."),
    Row("VectorstoreTool", ("source",), Status.DIFFERS,
        "A local file or folder, or a remote `s3://`, `az://`, `http(s)://` source it "
        "downloads; unreadable files are skipped with a warning.",
        "Local files and folders; a remote source or an unreadable file stops the run "
        "(exit 2)."),
    Row("VectorstoreTool", ("vector_field", "meta_fields", "id_field", "field_separator",
                            "delimiter"), Status.APPLIED,
        "Structured records: what is embedded, kept and shown.", "The same."),
    Row("VectorstoreTool", ("record_path", "record_prefix"), Status.DIFFERS,
        "Not passed to the record loader (`tools/vectorstore_tool.py:636`).",
        "Applied: `record_path` finds the list in a JSON file, `record_prefix` prefixes "
        "field names."),
    Row("VectorstoreTool", ("meta_prefix",), Status.UNUSED,
        "Not read.", "Not read."),
    Row("VectorstoreTool", ("chunk_size", "chunk_overlap"), Status.APPLIED,
        "The chunker's size; its overlap is accepted but chunks do not overlap.",
        "The same."),
    Row("VectorstoreTool", ("embedding_model", "embedding_dimensions"), Status.APPLIED,
        "The embedding model (one per agent) and vector length.", "The same."),
    Row("VectorstoreTool", ("database",), Status.DIFFERS,
        "The vector store, inline or named in `config.yaml`; an unreachable one falls back "
        "to memory with a warning.",
        "The same stores; an unreachable one, or a hosted service this runner does not "
        "reach (Pinecone, Azure AI Search, ...), stops the run (exit 2)."),
    Row("VectorstoreTool", ("top_k", "min_similarity_score"), Status.APPLIED,
        "How many results a search returns, and the lowest score kept.", "The same."),
    Row("DatabaseConfig", ("provider", "connection_string"), Status.DIFFERS,
        "The database and how to reach it.",
        "The same for in-memory, ChromaDB, Qdrant, PostgreSQL and FAISS; other providers "
        "stop the run (exit 2)."),
    Row("FunctionTool", ("name", "description", "type"), Status.APPLIED,
        "The function the model sees; the Claude backend cuts the description to 200 "
        "characters.", "The same."),
    Row("FunctionTool", ("defer_loading",), Status.UNUSED,
        "Not read by any backend.", "Not read."),
    Row("FunctionTool", ("file", "function"), Status.APPLIED,
        "The Python function, imported from the agent's folder.", "The same."),
    Row("FunctionTool", ("parameters",), Status.APPLIED,
        "OpenAI backend: the schema's `properties`, every one required, "
        "`additionalProperties: false`; else derived from the signature "
        "(`lib/backends/openai_agents_tool_adapters.py:_derive_params_schema`). Claude "
        "backend: not read; the schema comes from the signature, every parameter "
        "required (`lib/backends/tool_adapters.py:_derive_input_schema`).",
        "The same, by the backend HoloDeck would use for the provider."),
    Row("MCPTool", ("name", "description", "type"), Status.APPLIED,
        "The server; its tools keep their own names and descriptions.", "The same."),
    Row("MCPTool", ("defer_loading", "load_tools", "load_prompts", "registry_name"),
        Status.UNUSED, "Not read by the test backends.", "Not read."),
    Row("MCPTool", ("transport",), Status.DIFFERS,
        "OpenAI backend: stdio, SSE, streamable HTTP; websocket is skipped. Claude "
        "backend: stdio only.",
        "stdio, SSE, streamable HTTP for every provider; websocket is not offered, with a "
        "warning."),
    Row("MCPTool", ("command", "args", "env", "config", "encoding", "url", "headers",
                    "timeout", "sse_read_timeout", "terminate_on_close"), Status.APPLIED,
        "How the server is started or reached.", "The same (see \"MCP servers\")."),
    Row("MCPTool", ("env_file",), Status.DIFFERS,
        "Read from the process's working directory.", "Read from the agent's folder."),
    Row("MCPTool", ("request_timeout",), Status.DIFFERS,
        "Not passed on: the Agents SDK's 5-second read timeout bounds each call.",
        "Bounds each call."),
    Row("MCPTool", ("is_retrieval",), Status.DIFFERS,
        "Its results become retrieval context only where the call names match, which on "
        "the OpenAI backend they never do.",
        "Its results become retrieval context."),
    Row("PromptTool", ("name", "description", "type", "defer_loading", "template", "file",
                       "parameters", "model"), Status.UNUSED,
        "Not offered to the model, with a warning (no backend runs prompt tools).",
        "The same."),
    Row("HierarchicalDocumentTool", ("name", "description", "type"), Status.APPLIED,
        "A function `{name}_search`, as for a vector store.", "The same."),
    Row("HierarchicalDocumentTool", ("source", "database", "embedding_model"),
        Status.DIFFERS, "As for a vector store.", "As for a vector store."),
    Row("HierarchicalDocumentTool", ("chunking_strategy", "max_chunk_tokens",
                                     "chunk_overlap"), Status.APPLIED,
        "Sections cut at headings, or token windows.",
        "The same; tokens are counted as four characters each."),
    Row("HierarchicalDocumentTool", ("search_mode", "top_k", "min_score", "semantic_weight",
                                     "keyword_weight", "rrf_k"), Status.APPLIED,
        "The search.", "The same (see \"Search\")."),
    Row("HierarchicalDocumentTool", ("exact_weight", "extract_definitions",
                                     "extract_cross_references", "enable_reranking",
                                     "reranker_model", "defer_loading"), Status.UNUSED,
        "Validated, not read by the tool.", "Not read."),
    Row("HierarchicalDocumentTool", ("document_domain",), Status.NOT_APPLIED,
        "Numbering patterns of that domain (`(a)`, `Sec. 2`) become sub-headings.",
        "run cuts documents at markdown headings only"),
    Row("HierarchicalDocumentTool", ("max_subsection_depth",), Status.DIFFERS,
        "How many levels of `document_domain` numbering count as sub-headings.",
        "How many markdown heading levels cut sections."),
    Row("HierarchicalDocumentTool", ("contextual_embeddings", "context_model",
                                     "context_max_tokens", "context_concurrency"),
        Status.NOT_APPLIED,
        "With `context_model` (or, for Anthropic agents, Claude), each chunk is embedded "
        "with a summary of where it sits, written by that model at ingestion.",
        "run embeds each chunk as written, without model-written summaries",
        acts=_summarises_chunks),
    Row("HierarchicalDocumentTool", ("keyword_index",), Status.DIFFERS,
        "The BM25 index: in memory, or OpenSearch.",
        "In memory; `opensearch` stops the run (exit 2)."),
    Row("KeywordIndexConfig", ("provider", "endpoint", "index_name", "username", "password",
                               "api_key", "verify_certs", "timeout_seconds"), Status.DIFFERS,
        "The OpenSearch connection.", "`opensearch` stops the run (exit 2)."),
    # ---------------------------------------------------------------- metrics
    Row("EvaluationConfig", ("model",), Status.DIFFERS,
        "The default judge model.", "The same, through this runner's backends (see "
        "`LLMProvider.provider`)."),
    Row("EvaluationConfig", ("metrics",), Status.NESTED,
        "The default metrics.", "See each metric kind."),
    Row("EvaluationConfig", ("optimizer",), Status.UNUSED, _OPTIMIZE.capitalize() + ".",
        "Not read."),
    Row("EvaluationMetric", ("type", "metric", "response_path"), Status.APPLIED,
        "Which metric, the JSON field it grades.", "The same."),
    Row("EvaluationMetric", ("threshold",), Status.DIFFERS,
        "The pass mark (unset: the evaluator's own verdict). `groundedness`, `relevance`, "
        "`coherence` and `fluency` compare it with the Azure AI evaluator's raw 1-5 rating "
        "(`executor.py:1620` reads the score under the metric's name), so a threshold up "
        "to 1 passes every rating.",
        "The pass mark of every metric, compared with its score in [0, 1] (a rating "
        "divided by `scale`); unset: the same verdicts."),
    Row("EvaluationMetric", ("enabled",), Status.DIFFERS,
        "Not honoured: the metric runs anyway.", "`false` skips it (`check` warns HL507)."),
    Row("EvaluationMetric", ("model",), Status.DIFFERS,
        "The judge, as an Azure AI evaluator (with no `endpoint` or `api_key` the run is "
        "refused); with neither it nor `evaluations.model`, `groundedness`, `relevance`, "
        "`coherence` and `fluency` do not run (`executor.py:697`).",
        "The judge, through its provider (`check` warns HL510); with neither, the agent's "
        "model judges."),
    Row("EvaluationMetric", ("fail_on_error",), Status.DIFFERS,
        "Not read for standard metrics.", "An error of the metric fails the test case."),
    Row("EvaluationMetric", ("scale", "retry_on_failure", "timeout_ms", "custom_prompt"),
        Status.DIFFERS, "Not read.",
        "Applied to the judge (see \"LLM-judged metrics\")."),
    Row("EvaluationMetric", ("case_insensitive", "strip_whitespace", "strip_punctuation",
                             "absolute_tolerance", "relative_tolerance", "accept_percent",
                             "accept_thousands_separators"), Status.DIFFERS,
        "The flags of the last such metric of the file grade every one "
        "(`executor.py:747-761`).", "Each metric's own (`check` warns HL508)."),
    Row("GEvalMetric", ("type", "name", "criteria", "evaluation_steps", "evaluation_params",
                        "strict_mode", "model"), Status.APPLIED,
        "The G-Eval judge's task (DeepEval's prompts).",
        "The same, with this runner's prompts."),
    Row("GEvalMetric", ("threshold",), Status.APPLIED,
        "The pass mark; unset, the judge is built with `threshold or 0.5` "
        "(`executor.py:649`) and passes at 0.5, the report showing no threshold.",
        "The same."),
    Row("GEvalMetric", ("enabled", "fail_on_error"), Status.DIFFERS,
        "Not honoured.", "`enabled: false` skips it; `fail_on_error` fails the test case."),
    Row("RAGMetric", ("type", "metric_type", "threshold", "include_reason", "model"),
        Status.APPLIED, "The RAG judge's task (DeepEval's prompts).",
        "The same, with this runner's prompts."),
    Row("RAGMetric", ("enabled", "fail_on_error"), Status.DIFFERS,
        "Not honoured.", "`enabled: false` skips it; `fail_on_error` fails the test case."),
    Row("CodeMetric", ("type", "grader", "threshold", "enabled", "name"), Status.APPLIED,
        "The grader and its pass mark.", "The same (see \"Assertions and metrics\")."),
    Row("CodeMetric", ("fail_on_error",), Status.DIFFERS,
        "On a single-turn test case a raising grader stops the whole run.",
        "It fails that test case only (`check` warns HL509)."),
    Row("OptimizerConfig", ("loss", "axes", "max_cycles", "numeric_phase", "textual_phase",
                            "min_delta", "seed"), Status.UNUSED,
        _OPTIMIZE.capitalize() + ".", "Not read."),
    Row("AxesConfig", ("numeric", "textual"), Status.UNUSED, _OPTIMIZE.capitalize() + ".",
        "Not read."),
    Row("NumericAxis", ("path", "type", "range"), Status.UNUSED,
        _OPTIMIZE.capitalize() + ".", "Not read."),
    Row("TextualAxis", ("path", "max_chars"), Status.UNUSED, _OPTIMIZE.capitalize() + ".",
        "Not read."),
    Row("PhaseConfig", ("max_trials", "patience"), Status.UNUSED,
        _OPTIMIZE.capitalize() + ".", "Not read."),
    # ---------------------------------------------------------------- test cases
    Row("TestCaseModel", ("name", "input", "expected_tools", "ground_truth",
                          "retrieval_context", "evaluations", "turns"), Status.APPLIED,
        "The test case.", "The same (see \"Assertions and metrics\")."),
    Row("TestCaseModel", ("files",), Status.DIFFERS,
        "Converted to markdown (markitdown) and put before the input, each as "
        "`File: NAME` and its text.",
        "Text and CSV files inlined after the input, other kinds named, not converted "
        "(see `FileInput`)."),
    Row("Turn", ("input", "ground_truth", "expected_tools", "retrieval_context",
                 "evaluations", "turn_config"), Status.APPLIED,
        "The turn.", "The same."),
    Row("Turn", ("files",), Status.DIFFERS, "As for a test case.", "As for a test case."),
    Row("ExpectedTool", ("name", "args", "count"), Status.APPLIED,
        "The tool assertion.", "The same."),
    Row("FileInput", ("path", "url", "type"), Status.DIFFERS,
        "The file is read or downloaded and converted to markdown.",
        "A text or CSV file is read; other kinds and URLs are named in the message, not "
        "converted or downloaded."),
    Row("FileInput", ("description",), Status.DIFFERS,
        "Not sent.", "Added to the file's title line."),
    Row("FileInput", ("pages", "sheet", "range"), Status.NOT_APPLIED,
        "Only those pages, that sheet, that cell range are converted.",
        "run converts no PDF, Office or image file, so it extracts no pages, sheet or range"),
    Row("FileInput", ("cache",), Status.NOT_APPLIED,
        "Whether a downloaded file is cached.", "run downloads no file"),
    # ---------------------------------------------------------------- execution
    Row("ExecutionConfig", ("llm_timeout",), Status.APPLIED,
        "Bounds each turn of a multi-turn case: the command line's, else the agent's, else "
        "`config.yaml`'s (project, then user), else `HOLODECK_LLM_TIMEOUT`, else 60 s.",
        "The same, and single-turn cases too (see \"Timeouts of single-turn cases\")."),
    Row("ExecutionConfig", ("parallel_test_cases",), Status.APPLIED,
        "How many test cases run at once: the command line's, else the agent's, else "
        "`config.yaml`'s (project, then user), else 1.",
        "The same (`HOLODECK_PARALLEL_TEST_CASES` before 1)."),
    Row("ExecutionConfig", ("file_timeout",), Status.NOT_APPLIED,
        "Bounds converting each file input and ingesting each source file (30 s when "
        "unset).", "run bounds no file reading: it converts no file, and reads sources "
        "without a time limit"),
    Row("ExecutionConfig", ("download_timeout", "cache_dir"), Status.NOT_APPLIED,
        "Bound and cache folder of downloaded files.", "run downloads no file"),
    Row("ExecutionConfig", ("cache_enabled", "verbose", "quiet"), Status.UNUSED,
        "Resolved, then not read (output follows the command line).", "Not read."),
    # ---------------------------------------------------------------- observability
    Row("ObservabilityConfig", ("enabled", "disable_provider_tracing", "service_name",
                                "traces", "metrics", "logs", "exporters",
                                "resource_attributes"), Status.NOT_APPLIED,
        "The telemetry setup.", _NO_TELEMETRY),
    Row("TracingConfig", ("enabled", "sample_rate", "capture_content",
                          "capture_evaluation_content", "redaction_patterns", "max_queue_size",
                          "max_export_batch_size", "schedule_delay_millis"), Status.NOT_APPLIED,
        "Traces.", _NO_TELEMETRY),
    Row("MetricsConfig", ("enabled", "export_interval_ms"), Status.NOT_APPLIED,
        "Metrics.", _NO_TELEMETRY),
    Row("LogsConfig", ("enabled", "level", "include_trace_context", "filter_namespaces"),
        Status.NOT_APPLIED, "Logs.", _NO_TELEMETRY),
    Row("ExportersConfig", ("console", "otlp", "prometheus", "azure_monitor"),
        Status.NOT_APPLIED, "Where telemetry goes.", _NO_TELEMETRY),
    Row("ConsoleExporterConfig", ("enabled", "pretty_print", "include_timestamps"),
        Status.NOT_APPLIED, "The console exporter.", _NO_TELEMETRY),
    Row("OTLPExporterConfig", ("enabled", "endpoint", "protocol", "headers", "timeout_ms",
                               "compression", "insecure"), Status.NOT_APPLIED,
        "The OTLP exporter.", _NO_TELEMETRY),
    Row("PrometheusExporterConfig", ("enabled", "port", "host", "path"), Status.NOT_APPLIED,
        "The Prometheus endpoint.", _NO_TELEMETRY),
    Row("AzureMonitorExporterConfig", ("enabled", "connection_string",
                                       "disable_offline_storage", "storage_directory"),
        Status.NOT_APPLIED, "The Azure Monitor exporter.", _NO_TELEMETRY),
    # ---------------------------------------------------------------- deployment
    Row("DeploymentConfig", ("runtime", "registry", "target", "protocol", "port",
                             "health_check_path", "environment", "platform"), Status.UNUSED,
        _DEPLOY.capitalize() + ".", "Not read."),
    Row("RegistryConfig", ("url", "repository", "tag_strategy", "custom_tag",
                           "credentials_env_prefix"), Status.UNUSED,
        _DEPLOY.capitalize() + ".", "Not read."),
    Row("CloudTargetConfig", ("provider", "aws", "gcp", "azure"), Status.UNUSED,
        _DEPLOY.capitalize() + ".", "Not read."),
    Row("AWSAppRunnerConfig", ("region", "cpu", "memory", "ecr_role_arn", "health_check_path",
                               "auto_scaling_min", "auto_scaling_max"), Status.UNUSED,
        _DEPLOY.capitalize() + ".", "Not read."),
    Row("GCPCloudRunConfig", ("project_id", "region", "memory", "cpu", "concurrency", "timeout",
                              "min_instances", "max_instances"), Status.UNUSED,
        _DEPLOY.capitalize() + ".", "Not read."),
    Row("AzureContainerAppsConfig", ("subscription_id", "resource_group", "environment_name",
                                     "location", "cpu", "memory", "ingress_external",
                                     "min_replicas", "max_replicas"), Status.UNUSED,
        _DEPLOY.capitalize() + ".", "Not read."),
    # ---------------------------------------------------------------- claude:
    Row("ClaudeConfig", ("max_turns",), Status.APPLIED,
        "Most model requests per turn (20 when unset).", "The same for `anthropic` and "
        "`ollama` agents."),
    Row("ClaudeConfig", ("max_concurrent_sessions", "session_memory_estimate_mib"),
        Status.UNUSED, _SERVE.capitalize() + ".", "Not read."),
    Row("ClaudeConfig", ("working_directory",), Status.NOT_APPLIED,
        "Claude Code's working folder: its file tools are scoped to it.",
        "run has no file tools to scope", providers=CLAUDE_BACKEND),
    Row("ClaudeConfig", ("permission_mode", "i_understand_this_is_unsafe"), Status.NOT_APPLIED,
        "Which built-in tool uses Claude Code approves (`acceptAll` without "
        "`i_understand_this_is_unsafe: true` stops the run, exit 3: `check` warns HL512).",
        "run offers no built-in tools, and runs every call of the agent's own tools",
        providers=CLAUDE_BACKEND),
    Row("ClaudeConfig", ("extended_thinking",), Status.NOT_APPLIED,
        "With `enabled: true`, the model thinks within `budget_tokens` before it answers.",
        "run sends no thinking budget", providers=CLAUDE_BACKEND, acts=_thinks),
    Row("ExtendedThinkingConfig", ("enabled", "budget_tokens"), Status.NOT_APPLIED,
        "Thinking and its budget.", "run sends no thinking budget", providers=CLAUDE_BACKEND),
    Row("ClaudeConfig", ("web_search",), Status.NOT_APPLIED,
        "`true` offers Claude Code's web search tool.", _NO_BUILTINS,
        providers=CLAUDE_BACKEND),
    Row("ClaudeConfig", ("bash",), Status.NOT_APPLIED,
        "`enabled: true` offers Claude Code's shell tool.", _NO_BUILTINS,
        providers=CLAUDE_BACKEND, acts=_shell),
    Row("BashConfig", ("enabled",), Status.NOT_APPLIED,
        "Offers the shell tool.", _NO_BUILTINS, providers=CLAUDE_BACKEND),
    Row("BashConfig", ("excluded_commands", "allow_unsafe"), Status.UNUSED,
        "Not read.", "Not read."),
    Row("ClaudeConfig", ("file_system",), Status.NOT_APPLIED,
        "`write` and `edit` offer Claude Code's file-writing tools.", _NO_BUILTINS,
        providers=CLAUDE_BACKEND, acts=_writes_files),
    Row("FileSystemConfig", ("write", "edit"), Status.NOT_APPLIED,
        "Offer the file-writing tools.", _NO_BUILTINS, providers=CLAUDE_BACKEND),
    Row("FileSystemConfig", ("read",), Status.UNUSED,
        "Not read (the read tool is never withheld).", "Not read."),
    Row("ClaudeConfig", ("agents",), Status.NOT_APPLIED,
        "Subagents the model may hand work to.", "run has no subagents",
        providers=CLAUDE_BACKEND),
    Row("SubagentSpec", ("description", "prompt", "prompt_file", "tools", "model"),
        Status.NOT_APPLIED, "A subagent.", "run has no subagents", providers=CLAUDE_BACKEND),
    Row("ClaudeConfig", ("allowed_tools", "disallowed_tools"), Status.NOT_APPLIED,
        "Tool names Claude Code may, or may not, use (built-in tools and the agent's).",
        "run offers every tool of `tools:` and no built-in tool", providers=CLAUDE_BACKEND),
    Row("ClaudeConfig", ("effort",), Status.NOT_APPLIED,
        "The thinking effort.", "run sends no effort to the Messages API",
        providers=CLAUDE_BACKEND),
    Row("ClaudeConfig", ("max_budget_usd",), Status.NOT_APPLIED,
        "A session stops when its cost reaches the cap.", "run keeps no cost account",
        providers=CLAUDE_BACKEND),
    Row("ClaudeConfig", ("fallback_model",), Status.NOT_APPLIED,
        "The model used when the main one is unavailable.",
        "run retries the same model only", providers=CLAUDE_BACKEND),
    Row("ClaudeConfig", ("setting_sources",), Status.NOT_APPLIED,
        "Which Claude Code settings layers (user, project, local) are loaded.",
        "run loads no Claude Code settings", providers=CLAUDE_BACKEND),
    Row("ClaudeConfig", ("disable_default_hooks",), Status.DIFFERS,
        "By default a hook redacts credentials from tool results before the model sees "
        "them; `true` turns it off.",
        "Tool results reach the model as returned, as with `true` (reports, recordings "
        "and logs are redacted)."),
    Row("ClaudeConfig", ("disable_subprocess_env_scrub",), Status.NOT_APPLIED,
        "`true` lets stdio MCP servers and shell commands inherit the whole environment.",
        "stdio MCP servers get the MCP SDK's default environment plus `env_file`, `env` "
        "and `config`, whatever this says", providers=CLAUDE_BACKEND),
    # ---------------------------------------------------------------- openai:
    Row("OpenAIConfig", ("max_turns",), Status.APPLIED,
        "Most model requests per turn (20 when unset).",
        "The same for `openai` and `azure_openai` agents."),
    Row("OpenAIConfig", ("max_concurrent_sessions", "session_memory_estimate_mib"),
        Status.UNUSED, _SERVE.capitalize() + ".", "Not read."),
    Row("OpenAIConfig", ("i_understand_this_is_unsafe", "disable_default_hooks",
                         "disable_subprocess_env_scrub"), Status.UNUSED,
        "Not read by the OpenAI backend.", "Not read."),
    Row("OpenAIConfig", ("permissions",), Status.NESTED,
        "Tool allow and deny lists.", "See `OpenAIPermissionsConfig`."),
    Row("OpenAIPermissionsConfig", ("allowed_tools",), Status.DIFFERS,
        "Only checked: a tool in both lists refuses the agent.", "Not read."),
    Row("OpenAIPermissionsConfig", ("disallowed_tools",), Status.NOT_APPLIED,
        "These tools (by their YAML `name`) are removed before the run.",
        "run offers every tool of `tools:`", providers=OPENAI_BACKEND),
    Row("OpenAIConfig", ("disallowed_tools",), Status.NOT_APPLIED,
        "These tools (by their YAML `name`) are removed before the run.",
        "run offers every tool of `tools:`", providers=OPENAI_BACKEND),
    Row("OpenAIConfig", ("effort",), Status.APPLIED,
        "`reasoning: {effort, summary: auto}` (`max` is `xhigh`).", "The same effort."),
    Row("OpenAIConfig", ("max_budget_usd",), Status.NOT_APPLIED,
        "A session stops when its cost reaches the cap.", "run keeps no cost account",
        providers=OPENAI_BACKEND),
    Row("OpenAIConfig", ("fallback_model",), Status.NOT_APPLIED,
        "A request answered 429 or 5xx is sent once more to this model.",
        "run retries the same model only", providers=OPENAI_BACKEND),
)

# Where each model stands in the agent file: the headings of docs/runner.md's table.
PLACES: dict[str, str] = {
    "Agent": "the agent file",
    "LLMProvider": "`model:`, `embedding_provider:`, judge models (`evaluations.model`, a "
    "metric's `model:`), a document tool's `reranker_model` and `context_model`",
    "Instructions": "`instructions:`",
    "VectorstoreTool": "`tools:` entries of `type: vectorstore`",
    "DatabaseConfig": "a tool's inline `database:`",
    "FunctionTool": "`type: function`",
    "MCPTool": "`type: mcp`",
    "PromptTool": "`type: prompt`",
    "HierarchicalDocumentTool": "`type: hierarchical_document`",
    "KeywordIndexConfig": "a document tool's `keyword_index:`",
    "EvaluationConfig": "`evaluations:`",
    "EvaluationMetric": "a metric of `type: standard` (or no `type`)",
    "GEvalMetric": "`type: geval`",
    "RAGMetric": "`type: rag`",
    "CodeMetric": "`type: code`",
    "OptimizerConfig": "`evaluations.optimizer`",
    "AxesConfig": "`optimizer.axes`",
    "NumericAxis": "`axes.numeric[]`",
    "TextualAxis": "`axes.textual[]`",
    "PhaseConfig": "`optimizer.numeric_phase`, `optimizer.textual_phase`",
    "TestCaseModel": "`test_cases[]`",
    "Turn": "`turns[]`",
    "ExpectedTool": "`expected_tools[]` written as a mapping",
    "FileInput": "`files[]`",
    "ExecutionConfig": "`execution:`",
    "ObservabilityConfig": "`observability:`",
    "TracingConfig": "`observability.traces`",
    "MetricsConfig": "`observability.metrics`",
    "LogsConfig": "`observability.logs`",
    "ExportersConfig": "`observability.exporters`",
    "ConsoleExporterConfig": "`exporters.console`",
    "OTLPExporterConfig": "`exporters.otlp`",
    "PrometheusExporterConfig": "`exporters.prometheus`",
    "AzureMonitorExporterConfig": "`exporters.azure_monitor`",
    "DeploymentConfig": "`deployment:`",
    "RegistryConfig": "`deployment.registry`",
    "CloudTargetConfig": "`deployment.target`",
    "AWSAppRunnerConfig": "`target.aws`",
    "GCPCloudRunConfig": "`target.gcp`",
    "AzureContainerAppsConfig": "`target.azure`",
    "ClaudeConfig": "`claude:` (read by `holodeck test` for `anthropic` and `ollama` agents)",
    "ExtendedThinkingConfig": "`claude.extended_thinking`",
    "BashConfig": "`claude.bash`",
    "FileSystemConfig": "`claude.file_system`",
    "SubagentSpec": "`claude.agents.NAME`",
    "OpenAIConfig": "`openai:` (read by `holodeck test` for `openai` and `azure_openai` "
    "agents)",
    "OpenAIPermissionsConfig": "`openai.permissions`",
}


def row_for(model: str, field: str) -> Row | None:
    return _INDEX.get((model, field))


_INDEX: dict[tuple[str, str], Row] = {
    (row.model, name): row for row in ROWS for name in row.fields
}


def render() -> str:
    """The markdown of docs/runner.md's field table."""
    out: list[str] = []
    seen: list[str] = []
    for row in ROWS:
        if row.model not in seen:
            seen.append(row.model)
    for model in seen:
        out.append(f"#### `{model}`: {PLACES[model]}\n")
        out.append("| field | `holodeck test` | `run` |")
        out.append("|---|---|---|")
        for row in (r for r in ROWS if r.model == model):
            names = ", ".join(f"`{name}`" for name in row.fields)
            text = row.run if row.run.endswith(".") else _as_sentence(row.run)
            out.append(f"| {names} | {row.holodeck} | **{row.status.value}.** {text} |")
        out.append("")
    return "\n".join(out)


def _as_sentence(reason: str) -> str:
    """A warning's reason ("run has no subagents") as a sentence of the docs."""
    return (f"`run`{reason[3:]}" if reason.startswith("run ") else reason) + "."
