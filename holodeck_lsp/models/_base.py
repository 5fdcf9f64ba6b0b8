"""The base every model shares: unknown keys are rejected, as HoloDeck does."""

from pydantic import BaseModel, ConfigDict


class StrictModel(BaseModel):
    """A configuration model that forbids keys it does not declare."""

    # Validators are built on first use, so `check` builds only the sections a file has.
    model_config = ConfigDict(extra="forbid", defer_build=True)


# Model modules do not use `from __future__ import annotations`: string annotations are
# compiled one by one when the classes are created, a third of `check`'s start-up.
