"""The agent's system prompt: a file reference or inline text, exactly one of them."""

from pydantic import Field, ValidationInfo, field_validator, model_validator

from holodeck_lsp.models._base import StrictModel
from holodeck_lsp.models.errors import MUTUALLY_EXCLUSIVE, REQUIRES_ONE_OF, fail, require_text


class Instructions(StrictModel):
    """The system prompt, read from `file` or written `inline`."""

    file: str | None = Field(
        None,
        description="File holding the system prompt, relative to the agent file.",
    )
    inline: str | None = Field(None, description="The system prompt, written in place.")

    @field_validator("file")
    @classmethod
    def _file_not_blank(cls, value: str | None) -> str | None:
        return require_text(value, "file")

    @field_validator("inline")
    @classmethod
    def _inline_alone(cls, value: str | None, info: ValidationInfo) -> str | None:
        require_text(value, "inline")
        if value and info.data.get("file"):
            raise fail(MUTUALLY_EXCLUSIVE, "give either 'file' or 'inline', not both")
        return value

    @model_validator(mode="after")
    def _one_source(self) -> "Instructions":
        if not self.file and not self.inline:
            raise fail(REQUIRES_ONE_OF, "instructions need a 'file' or an 'inline' text")
        return self
