"""The `claude:` block: settings of the Claude agent backend (provider `anthropic`)."""

from enum import Enum
from pathlib import Path
from typing import Literal

from pydantic import Field, StrictBool, ValidationInfo, field_validator, model_validator

from holodeck_lsp.models._base import StrictModel
from holodeck_lsp.models.errors import MUTUALLY_EXCLUSIVE, REQUIRES_ONE_OF, fail, require_text
from holodeck_lsp.named_files import MAX_NAMED_BYTES, NotReadable, read_text

# Validation-context key holding the agent file's folder. When it is given, a subagent's
# `prompt_file` is checked the way the loader reads it (it inlines the file at load).
AGENT_DIR_CONTEXT_KEY = "agent_dir"

SettingSource = Literal["user", "project", "local", "all"]
ALL_SETTING_SOURCES: list[SettingSource] = ["user", "project", "local"]


class PermissionMode(str, Enum):
    """How much the agent may do without asking."""

    manual = "manual"
    acceptEdits = "acceptEdits"
    acceptAll = "acceptAll"


class ExtendedThinkingConfig(StrictModel):
    """Extended (deep) reasoning before answering."""

    enabled: bool = Field(False, description="Let the model think at length before replying.")
    budget_tokens: int = Field(
        10_000, ge=1_000, le=100_000, description="Tokens allowed for thinking (1000-100000)."
    )


class BashConfig(StrictModel):
    """The shell tool."""

    enabled: bool = Field(False, description="Let the agent run shell commands.")
    excluded_commands: list[str] = Field(
        default_factory=list, description="Commands the agent may never run."
    )
    allow_unsafe: bool = Field(False, description="Allow commands considered dangerous.")


class FileSystemConfig(StrictModel):
    """File access tools."""

    read: bool = Field(False, description="Let the agent read files.")
    write: bool = Field(False, description="Let the agent create files.")
    edit: bool = Field(False, description="Let the agent modify files.")


class SubagentSpec(StrictModel):
    """A helper agent the main agent can hand work to."""

    description: str = Field(
        ..., description="When to use this subagent; the main agent routes work by it."
    )
    prompt: str | None = Field(
        None, description="The subagent's system prompt, inline. Give this or `prompt_file`."
    )
    prompt_file: str | None = Field(
        None,
        description=(
            "File holding the subagent's system prompt, relative to the agent file. "
            "Give this or `prompt`."
        ),
    )
    tools: list[str] | None = Field(
        None, description="Tools the subagent may use; all of the parent's when omitted."
    )
    model: Literal["sonnet", "opus", "haiku", "inherit"] | None = Field(
        None,
        description="Model alias of the subagent: `sonnet`, `opus`, `haiku` or `inherit`.",
    )

    @field_validator("description")
    @classmethod
    def _description_not_blank(cls, value: str) -> str:
        return require_text(value, "description") or value

    @field_validator("prompt")
    @classmethod
    def _prompt_not_blank(cls, value: str | None) -> str | None:
        return require_text(value, "prompt")

    @field_validator("prompt_file")
    @classmethod
    def _prompt_file_usable(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None:
            return value
        if info.data.get("prompt") is not None:
            raise fail(MUTUALLY_EXCLUSIVE, "give either 'prompt' or 'prompt_file', not both")
        agent_dir = (info.context or {}).get(AGENT_DIR_CONTEXT_KEY)
        if agent_dir is not None:
            _check_prompt_file(Path(agent_dir), value)
        return value

    @model_validator(mode="after")
    def _one_prompt(self) -> "SubagentSpec":
        if self.prompt is None and self.prompt_file is None:
            raise fail(REQUIRES_ONE_OF, "a subagent needs a 'prompt' or a 'prompt_file'")
        return self


def _check_prompt_file(agent_dir: Path, name: str) -> None:
    """The file must exist and hold non-blank UTF-8 text, since the loader inlines it."""
    path = Path(name)
    if not path.is_absolute():
        path = agent_dir / path
    try:
        text = read_text(path, MAX_NAMED_BYTES)
    except NotReadable as error:
        if error.problem == "missing":
            raise ValueError(f"prompt_file not found: {path}") from None
        raise ValueError(f"prompt_file {error.reason}: {path}") from None
    if not text.strip():
        raise ValueError(f"prompt_file is empty: {path}")


class ClaudeConfig(StrictModel):
    """Settings of the Claude agent backend. Every capability is off unless enabled."""

    working_directory: str | None = Field(
        None, description="Folder the agent works in; file access is scoped to it."
    )
    permission_mode: PermissionMode = Field(
        PermissionMode.manual,
        description=(
            "`manual` (ask for everything, default), `acceptEdits`, or `acceptAll` "
            "(which also needs `i_understand_this_is_unsafe: true`)."
        ),
    )
    max_turns: int | None = Field(None, ge=1, description="Most agent-loop iterations per request.")
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
        500,
        ge=50,
        le=2000,
        description="Serving: expected peak memory of one active request, in MiB (50-2000).",
    )
    extended_thinking: ExtendedThinkingConfig | None = Field(
        None, description="Extended reasoning settings."
    )
    web_search: bool = Field(False, description="Give the agent the web search tool.")
    bash: BashConfig | None = Field(None, description="Shell tool settings.")
    file_system: FileSystemConfig | None = Field(None, description="File access settings.")
    agents: dict[str, SubagentSpec] | None = Field(
        None, description="Subagents by name; they share the parent's MCP servers."
    )
    allowed_tools: list[str] | None = Field(
        None, description="Only these tools may be used; all configured tools when omitted."
    )
    effort: Literal["low", "medium", "high", "max"] | None = Field(
        None, description="Thinking effort: `low`, `medium`, `high` or `max`."
    )
    max_budget_usd: float | None = Field(
        None, gt=0, description="Spending cap of one session, in US dollars (> 0)."
    )
    fallback_model: str | None = Field(
        None, description="Model used when the main one is unavailable."
    )
    disallowed_tools: list[str] | None = Field(
        None, description="Tools that may never be used; wins over `allowed_tools`."
    )
    setting_sources: list[SettingSource] | None = Field(
        None,
        description=(
            "Claude Code settings layers to load: any of `user`, `project`, `local`, or "
            "`all` alone. None are loaded when omitted."
        ),
    )
    i_understand_this_is_unsafe: bool = Field(
        False,
        description=("Confirms `permission_mode: acceptAll`, which lets every tool run unchecked."),
    )
    disable_default_hooks: StrictBool = Field(
        False, description="Turn off the built-in hooks (credential redaction of tool output)."
    )
    disable_subprocess_env_scrub: StrictBool = Field(
        False,
        description=(
            "Let shell commands and stdio MCP servers inherit the full environment, "
            "credentials included."
        ),
    )

    @field_validator("setting_sources")
    @classmethod
    def _expand_all(cls, value: list[SettingSource] | None) -> list[SettingSource] | None:
        if value is None:
            return None
        if "all" in value:
            if len(value) > 1:
                raise fail(
                    MUTUALLY_EXCLUSIVE,
                    "'all' stands alone; otherwise list some of 'user', 'project', 'local'",
                )
            return list(ALL_SETTING_SOURCES)
        return list(dict.fromkeys(value))
