"""The agent's tools, one model per `type:`, and the union that picks among them."""

import math
from enum import Enum
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    ConfigDict,
    Discriminator,
    Field,
    SecretStr,
    Tag,
    ValidationInfo,
    field_validator,
    model_validator,
)

from holodeck_lsp.models._base import StrictModel
from holodeck_lsp.models.errors import MUTUALLY_EXCLUSIVE, REQUIRES_ONE_OF, fail, require_text
from holodeck_lsp.models.llm import LLMProvider

TOOL_NAME_PATTERN = r"^[0-9A-Za-z_]+$"
SOURCE_SCHEMES = frozenset({"s3", "az", "https", "http", "file"})

_NAME_DESCRIPTION = "Unique tool name: letters, digits and underscores only."
_DESCRIPTION_DESCRIPTION = "What the tool does; the model reads this to decide when to call it."
_DEFER_DESCRIPTION = (
    "Keep the tool out of the initial context and load it on demand through tool search "
    "(default). Set to false for tools the agent must always see."
)
_DATABASE_DESCRIPTION = (
    "Where the vectors are stored: a database mapping (`provider:` plus its connection "
    "settings), the name of a vector store declared in `config.yaml`, or nothing for an "
    "in-memory store."
)


def _check_source(value: str) -> str:
    """A source is a local path or a URI with one of the supported schemes."""
    require_text(value, "source")
    if "://" in value:
        scheme = value.split("://", 1)[0].lower()
        if scheme not in SOURCE_SCHEMES:
            raise ValueError(
                f"unsupported source URI scheme {scheme!r}; "
                f"use one of {', '.join(sorted(SOURCE_SCHEMES))} or a local path"
            )
    return value


class DatabaseConfig(StrictModel):
    """A vector database connection. Provider-specific settings may be added as extra keys."""

    model_config = ConfigDict(extra="allow")

    provider: Literal[
        "postgres",
        "azure-ai-search",
        "qdrant",
        "weaviate",
        "chromadb",
        "faiss",
        "azure-cosmos-mongo",
        "azure-cosmos-nosql",
        "sql-server",
        "pinecone",
        "in-memory",
    ] = Field(..., description="Vector database backend.")
    connection_string: SecretStr | None = Field(
        None,
        description=(
            "Connection string or service URL in the backend's own format, e.g. "
            "`postgresql://user:pass@host/db` or `http://localhost:6333`."
        ),
    )

    @field_validator("connection_string")
    @classmethod
    def _connection_not_blank(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None:
            require_text(value.get_secret_value(), "connection_string")
        return value


def _check_database_reference(value: DatabaseConfig | str | None) -> DatabaseConfig | str | None:
    if isinstance(value, str):
        require_text(value, "database")
    return value


SourceStr = Annotated[str, AfterValidator(_check_source)]
NamedOrInlineDatabase = Annotated[
    DatabaseConfig | str | None, AfterValidator(_check_database_reference)
]


class KeywordIndexConfig(StrictModel):
    """The BM25 keyword index of a hierarchical document tool. Extra keys are allowed."""

    model_config = ConfigDict(extra="allow")

    provider: Literal["in-memory", "opensearch"] = Field(
        "in-memory", description="`in-memory` (built in process) or `opensearch`."
    )
    endpoint: str | None = Field(
        None, validate_default=True, description="OpenSearch URL; required for `opensearch`."
    )
    index_name: str | None = Field(
        None,
        validate_default=True,
        description="OpenSearch index name; required for `opensearch`.",
    )
    username: str | None = Field(None, description="User name for basic authentication.")
    password: SecretStr | None = Field(None, description="Password for basic authentication.")
    api_key: SecretStr | None = Field(None, description="API key, instead of basic authentication.")
    verify_certs: bool = Field(True, description="Check the server's TLS certificate.")
    timeout_seconds: int = Field(
        10, ge=1, le=120, description="Connection timeout in seconds (1-120)."
    )

    @field_validator("endpoint", "index_name")
    @classmethod
    def _needed_by_opensearch(cls, value: str | None, info: ValidationInfo) -> str | None:
        if info.data.get("provider") == "opensearch" and not value:
            raise ValueError(f"{info.field_name} is required when provider is 'opensearch'")
        return value


class VectorstoreTool(StrictModel):
    """Semantic search over documents or structured records (`type: vectorstore`)."""

    name: str = Field(..., pattern=TOOL_NAME_PATTERN, description=_NAME_DESCRIPTION)
    description: str = Field(..., description=_DESCRIPTION_DESCRIPTION)
    type: Literal["vectorstore"] = Field("vectorstore", description="Tool kind.")
    defer_loading: bool = Field(True, description=_DEFER_DESCRIPTION)
    source: SourceStr = Field(
        ...,
        description=(
            "File or folder to index, relative to the agent file, or a URI "
            "(`s3://`, `az://`, `https://`, `http://`, `file://`)."
        ),
    )
    vector_field: str | list[str] | None = Field(
        None,
        description=(
            "Structured data: the record field(s) to embed. Setting it requires `id_field`."
        ),
    )
    meta_fields: list[str] | None = Field(
        None, description="Structured data: record fields returned alongside each hit."
    )
    chunk_size: int | None = Field(None, gt=0, description="Size of the text chunks to embed.")
    chunk_overlap: int | None = Field(
        None, ge=0, description="How much consecutive chunks overlap."
    )
    embedding_model: str | None = Field(
        None, description="Embedding model; the provider's default when omitted."
    )
    embedding_dimensions: int | None = Field(
        None,
        gt=0,
        le=10000,
        description="Length of the embedding vectors; detected from the model when omitted.",
    )
    database: NamedOrInlineDatabase = Field(None, description=_DATABASE_DESCRIPTION)
    top_k: int = Field(5, ge=1, le=100, description="How many results a search returns (1-100).")
    min_similarity_score: float | None = Field(
        None, ge=0.0, le=1.0, description="Drop results scoring below this (0.0-1.0)."
    )
    record_path: str | None = Field(
        None, description="Structured data: path to the list of records inside a JSON file."
    )
    record_prefix: str | None = Field(None, description="Structured data: prefix of record fields.")
    meta_prefix: str | None = Field(None, description="Structured data: prefix of metadata fields.")
    id_field: str | None = Field(
        None,
        validate_default=True,
        description="Structured data: the field identifying a record; needed with `vector_field`.",
    )
    field_separator: str = Field(
        "\n", description="Joins the values of several `vector_field`s before embedding."
    )
    delimiter: str | None = Field(
        None, description="CSV delimiter; detected from the file when omitted."
    )

    @field_validator("id_field")
    @classmethod
    def _id_field_for_records(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None and info.data.get("vector_field") is not None:
            raise ValueError("id_field is required when vector_field is set (structured data)")
        return value


class FunctionTool(StrictModel):
    """A Python function the agent may call (`type: function`)."""

    name: str = Field(..., pattern=TOOL_NAME_PATTERN, description=_NAME_DESCRIPTION)
    description: str = Field(..., description=_DESCRIPTION_DESCRIPTION)
    type: Literal["function"] = Field("function", description="Tool kind.")
    defer_loading: bool = Field(True, description=_DEFER_DESCRIPTION)
    file: str = Field(..., description="Python file defining the function, relative to the agent.")
    function: str = Field(..., description="Name of the function inside `file`.")
    parameters: dict[str, dict[str, Any]] | None = Field(
        None, description="JSON-Schema-like description of each parameter, by name."
    )

    @field_validator("file", "function")
    @classmethod
    def _not_blank(cls, value: str, info: ValidationInfo) -> str:
        return require_text(value, info.field_name or "value") or value


class TransportType(str, Enum):
    """How HoloDeck reaches an MCP server."""

    STDIO = "stdio"
    SSE = "sse"
    WEBSOCKET = "websocket"
    HTTP = "http"


class CommandType(str, Enum):
    """Programs allowed to start a local (stdio) MCP server."""

    NPX = "npx"
    NODE = "node"
    UVX = "uvx"
    DOCKER = "docker"


_LOCAL_HTTP_PREFIXES = ("http://localhost", "http://127.0.0.1", "http://[::1]")


class MCPTool(StrictModel):
    """A Model Context Protocol server whose tools the agent may call (`type: mcp`)."""

    name: str = Field(..., pattern=TOOL_NAME_PATTERN, description=_NAME_DESCRIPTION)
    description: str = Field(..., description=_DESCRIPTION_DESCRIPTION)
    type: Literal["mcp"] = Field("mcp", description="Tool kind.")
    defer_loading: bool = Field(True, description=_DEFER_DESCRIPTION)
    transport: TransportType = Field(
        TransportType.STDIO,
        description="`stdio` (a local process, default), `sse`, `websocket` or `http`.",
    )
    command: CommandType | None = Field(
        None,
        validate_default=True,
        description="stdio only, and required there: `npx`, `node`, `uvx` or `docker`.",
    )
    args: list[str] | None = Field(None, description="stdio: arguments of the command.")
    env: dict[str, str] | None = Field(None, description="stdio: environment of the server.")
    env_file: str | None = Field(
        None, description="stdio: a .env file loaded into its environment."
    )
    encoding: str | None = Field(None, description="stdio: text encoding of the streams (utf-8).")
    url: str | None = Field(
        None,
        validate_default=True,
        description=(
            "sse/websocket/http, and required there: server URL. `https://`, `wss://` or "
            "`ws://`; plain `http://` only for localhost."
        ),
    )
    headers: dict[str, str] | None = Field(None, description="HTTP headers sent to the server.")
    timeout: float | None = Field(None, description="Connection timeout in seconds.")
    sse_read_timeout: float | None = Field(None, description="sse: read timeout in seconds.")
    terminate_on_close: bool | None = Field(
        None, description="http: end the server session when the connection closes."
    )
    config: dict[str, Any] | None = Field(None, description="Settings passed to the server.")
    load_tools: bool = Field(True, description="Offer the server's tools to the agent.")
    load_prompts: bool = Field(True, description="Offer the server's prompts to the agent.")
    request_timeout: int = Field(60, gt=0, description="Time limit of one request, in seconds.")
    is_retrieval: bool = Field(
        False,
        description=(
            "Treat this server's results as retrieved context for the RAG metrics "
            "(faithfulness, contextual relevancy/precision/recall)."
        ),
    )
    registry_name: str | None = Field(
        None,
        description="Reverse-DNS name in the MCP registry (e.g. `io.github.user/server`).",
    )

    @field_validator("command")
    @classmethod
    def _command_for_stdio(
        cls, value: CommandType | None, info: ValidationInfo
    ) -> CommandType | None:
        if value is None and info.data.get("transport") is TransportType.STDIO:
            raise ValueError("command is required for the stdio transport")
        return value

    @field_validator("url")
    @classmethod
    def _url_for_network(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None:
            transport = info.data.get("transport")
            if transport is not None and transport is not TransportType.STDIO:
                raise ValueError(f"url is required for the {transport.value} transport")
        elif value.startswith("http://"):
            if not value.startswith(_LOCAL_HTTP_PREFIXES):
                raise ValueError("url must use https:// (plain http:// only for localhost)")
        elif not value.startswith(("https://", "wss://", "ws://")):
            raise ValueError("url must start with https://, wss:// or ws://")
        return value


class PromptTool(StrictModel):
    """A prompt template run as a tool (`type: prompt`)."""

    name: str = Field(..., pattern=TOOL_NAME_PATTERN, description=_NAME_DESCRIPTION)
    description: str = Field(..., description=_DESCRIPTION_DESCRIPTION)
    type: Literal["prompt"] = Field("prompt", description="Tool kind.")
    defer_loading: bool = Field(True, description=_DEFER_DESCRIPTION)
    template: str | None = Field(
        None, description="The prompt template, inline. Give this or `file`."
    )
    file: str | None = Field(
        None, description="File holding the prompt template. Give this or `template`."
    )
    parameters: dict[str, dict[str, Any]] = Field(
        ...,
        min_length=1,
        description="The template's parameters by name, each with its schema (at least one).",
    )
    model: dict[str, Any] | None = Field(None, description="Model settings for this prompt only.")

    @field_validator("template")
    @classmethod
    def _template_not_blank(cls, value: str | None) -> str | None:
        return require_text(value, "template")

    @field_validator("file")
    @classmethod
    def _file_alone(cls, value: str | None, info: ValidationInfo) -> str | None:
        require_text(value, "file")
        if value and info.data.get("template"):
            raise fail(MUTUALLY_EXCLUSIVE, "give either 'template' or 'file', not both")
        return value

    @model_validator(mode="after")
    def _one_template(self) -> "PromptTool":
        if not self.template and not self.file:
            raise fail(REQUIRES_ONE_OF, "a prompt tool needs a 'template' or a 'file'")
        return self


class ChunkingStrategy(str, Enum):
    """How a hierarchical document is split into chunks."""

    STRUCTURE = "structure"
    TOKEN = "token"


class DocumentDomain(str, Enum):
    """Numbering conventions recognised as implicit sub-headings."""

    NONE = "none"
    US_LEGISLATIVE = "us_legislative"
    AU_LEGISLATIVE = "au_legislative"
    ACADEMIC = "academic"
    TECHNICAL = "technical"
    LEGAL_CONTRACT = "legal_contract"


class SearchMode(str, Enum):
    """Which indexes a hierarchical document search consults."""

    SEMANTIC = "semantic"
    KEYWORD = "keyword"
    HYBRID = "hybrid"


class HierarchicalDocumentTool(StrictModel):
    """Structure-aware search over markdown documents (`type: hierarchical_document`)."""

    name: str = Field(..., pattern=TOOL_NAME_PATTERN, description=_NAME_DESCRIPTION)
    description: str = Field(..., description=_DESCRIPTION_DESCRIPTION)
    type: Literal["hierarchical_document"] = Field(
        "hierarchical_document", description="Tool kind."
    )
    source: SourceStr = Field(
        ...,
        description=(
            "Markdown file, folder or glob pattern to index, relative to the agent file, "
            "or a URI (`s3://`, `az://`, `https://`, `http://`, `file://`)."
        ),
    )
    chunking_strategy: ChunkingStrategy = Field(
        ChunkingStrategy.STRUCTURE,
        description="`structure` splits at headings; `token` cuts fixed-size token windows.",
    )
    max_chunk_tokens: int = Field(800, ge=100, le=2000, description="Largest chunk, in tokens.")
    chunk_overlap: int = Field(
        50, ge=0, le=200, description="Tokens shared by consecutive chunks (0-200)."
    )
    document_domain: DocumentDomain = Field(
        DocumentDomain.NONE,
        description=(
            "Numbering style recognised as sub-headings, such as `(a)` or `Step 1`: `none`, "
            "`us_legislative`, `au_legislative`, `academic`, `technical`, `legal_contract`."
        ),
    )
    max_subsection_depth: int | None = Field(
        None, ge=1, description="How many sub-heading levels to recognise; all when omitted."
    )
    search_mode: SearchMode = Field(
        SearchMode.HYBRID,
        description="`semantic` (embeddings), `keyword` (BM25) or `hybrid` (both, fused).",
    )
    top_k: int = Field(10, ge=1, le=100, description="How many results a search returns (1-100).")
    min_score: float | None = Field(
        None, ge=0.0, le=1.0, description="Drop results scoring below this (0.0-1.0)."
    )
    semantic_weight: float = Field(
        0.5, ge=0.0, le=1.0, description="Hybrid mode: weight of the semantic ranking."
    )
    keyword_weight: float = Field(
        0.3, ge=0.0, le=1.0, description="Hybrid mode: weight of the keyword ranking."
    )
    exact_weight: float = Field(
        0.2, ge=0.0, le=1.0, description="Hybrid mode: weight of exact matches."
    )
    rrf_k: int = Field(
        60, ge=1, description="Reciprocal-rank-fusion constant; larger flattens the ranking."
    )
    contextual_embeddings: bool = Field(
        True,
        description="Prefix each chunk with a short summary of where it sits before embedding.",
    )
    context_max_tokens: int = Field(
        100, ge=50, le=200, description="Length of that summary, in tokens (50-200)."
    )
    context_concurrency: int = Field(
        10, ge=1, le=50, description="Summaries generated in parallel (1-50)."
    )
    extract_definitions: bool = Field(True, description="Index the terms the documents define.")
    extract_cross_references: bool = Field(True, description="Resolve references between sections.")
    enable_reranking: bool = Field(
        False, description="Reorder results with a model; needs `reranker_model`."
    )
    reranker_model: LLMProvider | None = Field(
        None, validate_default=True, description="Model that reranks results."
    )
    context_model: LLMProvider | None = Field(
        None, description="Model that writes the chunk summaries."
    )
    embedding_model: str | None = Field(
        None, description="Embedding model; the provider's default when omitted."
    )
    # Unlike a vector store tool, a blank string reference is not refused here.
    database: DatabaseConfig | str | None = Field(None, description=_DATABASE_DESCRIPTION)
    keyword_index: KeywordIndexConfig | None = Field(
        None, description="Where the keyword index lives; in memory when omitted."
    )
    defer_loading: bool = Field(True, description=_DEFER_DESCRIPTION)

    @field_validator("reranker_model")
    @classmethod
    def _reranker_when_enabled(
        cls, value: LLMProvider | None, info: ValidationInfo
    ) -> LLMProvider | None:
        if value is None and info.data.get("enable_reranking") is True:
            raise ValueError("reranker_model is required when enable_reranking is true")
        return value

    @model_validator(mode="after")
    def _hybrid_weights(self) -> "HierarchicalDocumentTool":
        if self.search_mode is SearchMode.HYBRID:
            total = self.semantic_weight + self.keyword_weight + self.exact_weight
            if not math.isclose(total, 1.0, rel_tol=0.0, abs_tol=1e-6):
                raise ValueError(
                    "in hybrid mode semantic_weight + keyword_weight + exact_weight must be "
                    f"1.0, they add up to {total:.6f}"
                )
            if self.semantic_weight + self.keyword_weight <= 0:
                raise ValueError("hybrid mode needs semantic_weight + keyword_weight > 0")
        return self


def tool_kind(value: Any) -> Any:
    """The `type` of a tool entry, which selects its model (absent: empty string)."""
    if isinstance(value, dict):
        return value.get("type", "")
    return getattr(value, "type", "")


ToolUnion = Annotated[
    Annotated[VectorstoreTool, Tag("vectorstore")]
    | Annotated[FunctionTool, Tag("function")]
    | Annotated[MCPTool, Tag("mcp")]
    | Annotated[PromptTool, Tag("prompt")]
    | Annotated[HierarchicalDocumentTool, Tag("hierarchical_document")],
    Discriminator(tool_kind),
]
