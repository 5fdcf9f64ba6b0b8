"""`config.yaml`: shared defaults for every agent of a project (or of the user).

The project's file (next to the agent) and the user's (`~/.holodeck/`) have the same
shape. They are validated on their own, then merged into the agent before it is.
"""

from typing import Any

from pydantic import Field, field_validator

from holodeck_lsp.models._base import StrictModel
from holodeck_lsp.models.deployment import DeploymentConfig
from holodeck_lsp.models.errors import require_text
from holodeck_lsp.models.execution import ExecutionConfig
from holodeck_lsp.models.llm import LLMProvider
from holodeck_lsp.models.tools import MCPTool

# Provider spellings a named store may use that a tool's `database.provider` does not.
DATABASE_PROVIDER_ALIASES = {"postgresql": "postgres"}


class VectorstoreConfig(StrictModel):
    """A named vector database that tools reference with `database: <name>`."""

    provider: str = Field(
        ...,
        description=(
            "Database backend, e.g. `postgres` (or `postgresql`), `qdrant`, `chromadb`, "
            "`pinecone`. It must be one a vector store tool accepts once referenced."
        ),
    )
    connection_string: str = Field(..., description="Connection string or service URL.")
    options: dict[str, Any] | None = Field(
        None, description="Backend-specific settings, passed to the database as extra keys."
    )

    @field_validator("provider", "connection_string")
    @classmethod
    def _not_blank(cls, value: str, info: Any) -> str:
        return require_text(value, info.field_name) or value

    def as_database(self) -> dict[str, Any]:
        """The `database:` mapping a vector store tool gets when it names this store.

        The loader validates it as a tool database (`tools.DatabaseConfig`) and refuses
        the agent when that fails, e.g. for a provider no tool supports.
        """
        provider = DATABASE_PROVIDER_ALIASES.get(self.provider.lower(), self.provider)
        return {
            "provider": provider,
            "connection_string": self.connection_string,
            **(self.options or {}),
        }


class GlobalConfig(StrictModel):
    """Defaults shared by agents: named models, vector stores, MCP servers and more."""

    providers: dict[str, LLMProvider] | None = Field(
        None,
        description=(
            "Named model settings. An agent's `model` (and `evaluations.model`) takes the "
            "keys it does not set itself from the entry named like its `provider`."
        ),
    )
    vectorstores: dict[str, VectorstoreConfig] | None = Field(
        None, description="Named vector databases, referenced by tools as `database: <name>`."
    )
    execution: ExecutionConfig | None = Field(
        None, description="Default test-run settings, below the agent's own `execution`."
    )
    deployment: DeploymentConfig | None = Field(
        None, description="Default deployment settings, deep-merged under the agent's own."
    )
    mcp_servers: list[MCPTool] | None = Field(
        None,
        description="MCP servers added to every agent's tools (unless a tool has the same name).",
    )
