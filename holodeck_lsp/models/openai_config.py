"""The `openai:` block: settings of the OpenAI Agents backend (`openai`, `azure_openai`)."""

from typing import Literal

from pydantic import Field, StrictBool

from holodeck_lsp.models._base import StrictModel


class OpenAIPermissionsConfig(StrictModel):
    """Which tools the OpenAI backend may use."""

    allowed_tools: list[str] | None = Field(
        None, description="Only these tools may be used; all configured tools when omitted."
    )
    disallowed_tools: list[str] | None = Field(
        None, description="Tools that may never be used; wins over `allowed_tools`."
    )


class OpenAIConfig(StrictModel):
    """Settings of the OpenAI Agents backend."""

    max_concurrent_sessions: int | None = Field(
        None,
        ge=1,
        le=500,
        description=(
            "Serving: most requests processed at once (1-500); derived from the memory "
            "limit and `session_memory_estimate_mib` when omitted."
        ),
    )
    session_memory_estimate_mib: int = Field(
        100,
        ge=50,
        le=2000,
        description="Serving: expected peak memory of one active request, in MiB (50-2000).",
    )
    max_turns: int = Field(20, ge=1, description="Most agent-loop iterations per request.")
    i_understand_this_is_unsafe: bool = Field(
        False,
        description="Confirms loading hosted tools that run code on the server side.",
    )
    disable_default_hooks: StrictBool = Field(
        False, description="Turn off the built-in guardrails (credential redaction of output)."
    )
    disable_subprocess_env_scrub: StrictBool = Field(
        False,
        description=(
            "Let stdio MCP servers and function tools that start processes inherit the full "
            "environment, credentials included."
        ),
    )
    permissions: OpenAIPermissionsConfig | None = Field(
        None, description="Tool allow and deny lists."
    )
    effort: Literal["low", "medium", "high", "max"] | None = Field(
        None, description="Reasoning effort of reasoning models: `low`, `medium`, `high`, `max`."
    )
    max_budget_usd: float | None = Field(
        None, gt=0, description="Spending cap of one session, in US dollars (> 0)."
    )
    fallback_model: str | None = Field(
        None, description="Model used when the main one is unavailable."
    )
    disallowed_tools: list[str] | None = Field(
        None, description="Tools removed from the agent before it runs."
    )
