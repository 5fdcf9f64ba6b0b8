"""The base every model shares: unknown keys are rejected, as HoloDeck does.

Validators are built on first use (`defer_build`), so `check` builds only its file's: a
hack (CONTRIBUTING, "Performance hacks"). Benchmark row: `check`, 20-line file, cold.
Off (`HOLODECK_LSP_WITHOUT=deferred-validators`): each is built with its class.
"""

from pydantic import BaseModel, ConfigDict

from holodeck_lsp.hack_switches import hack_on


class StrictModel(BaseModel):
    """A configuration model that forbids keys it does not declare."""

    model_config = ConfigDict(extra="forbid", defer_build=hack_on("deferred-validators"))


# Model modules do not use `from __future__ import annotations`: string annotations are
# compiled one by one when the classes are created, a third of `check`'s start-up.
