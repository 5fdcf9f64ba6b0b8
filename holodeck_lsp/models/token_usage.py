"""Token accounting of one call, one turn or one test case."""

from pydantic import BaseModel, Field, ValidationInfo, field_validator


class TokenUsage(BaseModel):
    """Tokens used, including provider cache writes and reads; sums with ``+``."""

    prompt_tokens: int = Field(..., ge=0, description="Tokens sent to the model.")
    completion_tokens: int = Field(..., ge=0, description="Tokens the model produced.")
    total_tokens: int = Field(
        ..., ge=0, description="Total as the provider reports it (>= prompt + completion)."
    )
    cache_creation_tokens: int = Field(0, ge=0, description="Tokens written to a prompt cache.")
    cache_read_tokens: int = Field(0, ge=0, description="Tokens served from a prompt cache.")

    @field_validator("total_tokens")
    @classmethod
    def _total_covers_parts(cls, value: int, info: ValidationInfo) -> int:
        # Relaxed from equality: some providers count cache reads into the total.
        parts = info.data.get("prompt_tokens", 0) + info.data.get("completion_tokens", 0)
        if value < parts:
            raise ValueError(f"total_tokens ({value}) must be >= prompt + completion ({parts})")
        return value

    def __add__(self, other: object) -> "TokenUsage":
        if not isinstance(other, TokenUsage):
            return NotImplemented
        return TokenUsage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            total_tokens=self.total_tokens + other.total_tokens,
            cache_creation_tokens=self.cache_creation_tokens + other.cache_creation_tokens,
            cache_read_tokens=self.cache_read_tokens + other.cache_read_tokens,
        )

    @classmethod
    def zero(cls) -> "TokenUsage":
        """Usage with every count at zero: the start of a sum."""
        return cls(prompt_tokens=0, completion_tokens=0, total_tokens=0)
