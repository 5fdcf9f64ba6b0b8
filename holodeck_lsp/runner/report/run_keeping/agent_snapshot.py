"""The agent's configuration as a kept run records it: as the run loaded it (config files
merged, `${VAR}` substituted, only the keys the files set), redacted as HoloDeck redacts
it (`holodeck/lib/eval_run/redactor.py`: every `SecretStr` field and every field named
`api_key`, `password` or `secret` becomes `***`), then every value the run's registry of
secrets knows masked wherever it appears (an MCP server's `env:` and `headers:`, a URL's
credentials, a token in a field of any name)."""

from __future__ import annotations

import json
from typing import Any

from pydantic import SecretStr

from holodeck_lsp.models.agent import Agent
from holodeck_lsp.nesting import MAX_FILE_DEPTH, loads
from holodeck_lsp.runner.services.redaction import Secrets

REDACTED = "***"  # HoloDeck's placeholder
_REDACTED_NAMES = frozenset({"api_key", "password", "secret"})


def _redacted(value: Any) -> Any:
    if isinstance(value, SecretStr):
        return REDACTED
    if isinstance(value, dict):
        return {
            key: REDACTED if key in _REDACTED_NAMES and item is not None else _redacted(item)
            for key, item in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [_redacted(item) for item in value]
    return value


def agent_snapshot(agent: Agent, secrets: Secrets) -> dict[str, Any]:
    """The redacted configuration of ``agent``, as JSON data."""
    # By each value's own class: a test case's metric list holds any kind of metric.
    data = _redacted(agent.model_dump(mode="python", exclude_unset=True, serialize_as_any=True))
    # As HoloDeck writes it: JSON, any other value as its str().
    plain: dict[str, Any] = loads(json.dumps(data, default=str), MAX_FILE_DEPTH)
    masked: dict[str, Any] = secrets.mask_data(plain)
    return masked
