"""The language-model block: `model:`, `embedding_provider:`, judge models, config providers."""

from enum import Enum

from pydantic import Field, SecretStr, ValidationInfo, field_validator
from pydantic_core import PydanticKnownError

from holodeck_lsp.models._base import StrictModel
from holodeck_lsp.models.errors import require_text


class ProviderEnum(str, Enum):
    """The model providers HoloDeck can talk to."""

    OPENAI = "openai"
    AZURE_OPENAI = "azure_openai"
    ANTHROPIC = "anthropic"
    OLLAMA = "ollama"


class AuthProvider(str, Enum):
    """How an Anthropic model is authenticated."""

    api_key = "api_key"
    oauth_token = "oauth_token"
    bedrock = "bedrock"
    vertex = "vertex"
    foundry = "foundry"
    custom = "custom"


def check_closed_range(value: float | None, low: float, high: float) -> float | None:
    """Reject a number outside [low, high].

    Written as two comparisons rather than a `ge`/`le` constraint on purpose: a NaN
    passes both comparisons, and the loader we mirror accepts it.
    """
    if value is None:
        return value
    if value < low:
        raise PydanticKnownError("greater_than_equal", {"ge": low})
    if value > high:
        raise PydanticKnownError("less_than_equal", {"le": high})
    return value


class LLMProvider(StrictModel):
    """Which model answers (or judges, or embeds), and how it is called."""

    provider: ProviderEnum = Field(
        ...,
        description="Model provider: `openai`, `azure_openai`, `anthropic` or `ollama`.",
    )
    name: str = Field(
        ...,
        description=(
            "Model name as the provider knows it (for Azure OpenAI, the deployment name), "
            "e.g. `gpt-4o` or `claude-sonnet-4-5`."
        ),
    )
    temperature: float | None = Field(
        0.3,
        description="Sampling temperature, from 0.0 (deterministic) to 2.0.",
        json_schema_extra={"minimum": 0.0, "maximum": 2.0},
    )
    max_tokens: int | None = Field(
        1000, gt=0, description="Upper limit on the number of tokens generated per reply."
    )
    top_p: float | None = Field(
        None,
        description="Nucleus-sampling probability mass, from 0.0 to 1.0.",
        json_schema_extra={"minimum": 0.0, "maximum": 1.0},
    )
    endpoint: str | None = Field(
        None,
        validate_default=True,  # the Azure rule below must also fire when the key is absent
        description=(
            "Base URL of the model service. Required for `azure_openai`; typical for "
            "`ollama` and for a custom Anthropic-compatible gateway."
        ),
    )
    api_key: SecretStr | None = Field(
        None, description="API key of the provider; usually written as `${ENV_VAR}`."
    )
    api_version: str | None = Field(
        None, description="Azure OpenAI API version, e.g. `2024-10-21`."
    )
    auth_provider: AuthProvider | None = Field(
        None,
        description=(
            "Anthropic only: how to authenticate (`api_key` by default, `oauth_token`, "
            "`bedrock`, `vertex`, `foundry`, or `custom` for a third-party endpoint). "
            "Ignored for the other providers."
        ),
    )

    @field_validator("name")
    @classmethod
    def _name_not_blank(cls, value: str) -> str:
        return require_text(value, "name") or value

    @field_validator("temperature")
    @classmethod
    def _temperature_range(cls, value: float | None) -> float | None:
        return check_closed_range(value, 0.0, 2.0)

    @field_validator("top_p")
    @classmethod
    def _top_p_range(cls, value: float | None) -> float | None:
        return check_closed_range(value, 0.0, 1.0)

    @field_validator("endpoint")
    @classmethod
    def _endpoint_for_azure(cls, value: str | None, info: ValidationInfo) -> str | None:
        if info.data.get("provider") is ProviderEnum.AZURE_OPENAI and not (value or "").strip():
            raise ValueError("endpoint is required for the azure_openai provider")
        return value
