"""The base every model shares: unknown keys are rejected, as HoloDeck does."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class StrictModel(BaseModel):
    """A configuration model that forbids keys it does not declare."""

    model_config = ConfigDict(extra="forbid")
