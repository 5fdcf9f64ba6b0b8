"""A run as HoloDeck 0.7.1 keeps it: the `TestReport` and the run's metadata (the agent's
configuration, secrets redacted; the prompt's version; where the run came from). `holodeck
test` writes one file per run to `results/<slug>/` beside the agent file, `run` too; its
dashboard and `holodeck-lsp history` read them. Field names and shapes are HoloDeck's
(`holodeck/models/eval_run.py`)."""

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from holodeck_lsp.models.test_result import TestReport

_SHA256_HEX = re.compile(r"[a-f0-9]{64}")


class _Kept(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


class PromptVersion(_Kept):
    """Which prompt the run used: the instructions file's frontmatter, and a hash of its
    body (the frontmatter left out)."""

    version: str = Field(
        ...,
        description="The frontmatter's `version:`, else `auto-` and the body hash's first "
        "8 characters.",
    )
    author: str | None = Field(None, description="The frontmatter's `author:`.")
    description: str | None = Field(None, description="The frontmatter's `description:`.")
    tags: list[str] = Field(default_factory=list, description="The frontmatter's `tags:`.")
    source: Literal["file", "inline"] = Field(
        ..., description="`file` for `instructions.file`, `inline` for `instructions.inline`."
    )
    file_path: str | None = Field(
        None, description="The instructions file, from the agent's folder; none when inline."
    )
    body_hash: str = Field(
        ..., description="SHA-256 (64 lowercase hex digits) of the prompt body."
    )
    extra: dict[str, Any] = Field(
        default_factory=dict, description="The frontmatter's other keys."
    )

    @field_validator("body_hash")
    @classmethod
    def _sha256(cls, value: str) -> str:
        if not _SHA256_HEX.fullmatch(value):
            raise ValueError("body_hash must be a 64-char lowercase hex SHA-256 digest")
        return value

    @model_validator(mode="after")
    def _path_with_file(self) -> "PromptVersion":
        if self.source == "inline" and self.file_path is not None:
            raise ValueError("file_path must be None when source='inline'")
        if self.source == "file" and not self.file_path:
            raise ValueError("file_path must be non-empty when source='file'")
        return self


class EvalRunMetadata(_Kept):
    """Where a run came from, beside its report."""

    agent_config: dict[str, Any] = Field(
        ...,
        description="The agent's configuration as the run loaded it (config files merged, "
        "`${VAR}` substituted), every secret redacted.",
    )
    prompt_version: PromptVersion = Field(..., description="The prompt the run used.")
    holodeck_version: str = Field(
        ..., description="Version of HoloDeck (`holodeck test`) or of the HoloDeck `run` follows."
    )
    cli_args: list[str] = Field(..., description="The command's arguments, secrets redacted.")
    git_commit: str | None = Field(
        None, description="The commit (`HEAD`) of the repository the suite is in; none outside one."
    )


class EvalRun(_Kept):
    """One run, as one file of `results/<slug>/`."""

    report: TestReport = Field(..., description="The run's report.")
    metadata: EvalRunMetadata = Field(..., description="Where the run came from.")

    @model_validator(mode="after")
    def _one_agent(self) -> "EvalRun":
        name = self.metadata.agent_config.get("name")
        if name != self.report.agent_name:
            raise ValueError(
                f"report.agent_name ({self.report.agent_name!r}) must equal "
                f"metadata.agent_config.name ({name!r})"
            )
        return self

    @property
    def model_name(self) -> str | None:
        """The agent's model, as the dashboard shows it (`model.name`)."""
        model = self.metadata.agent_config.get("model")
        name = model.get("name") if isinstance(model, dict) else None
        return name if isinstance(name, str) else None
