"""The base every model shares: unknown keys are rejected, as HoloDeck does."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class StrictModel(BaseModel):
    """A configuration model that forbids keys it does not declare."""

    # Validators are built on first use, so `check` builds only the sections a file has.
    model_config = ConfigDict(extra="forbid", defer_build=True)
