"""Reasoning models as `holodeck test` treats them (HoloDeck 0.7.1,
`lib/backends/openai_agents_backend.py`): a model whose name starts with o1, o3, o4 or gpt-5
(for Azure, the deployment's name) gets no sampling parameters, and `openai.effort` is sent
for any model, `max` as the service's `xhigh`."""

from __future__ import annotations

REASONING_PREFIXES = ("o1", "o3", "o4", "gpt-5")
EFFORTS = {"low": "low", "medium": "medium", "high": "high", "max": "xhigh"}


def is_reasoning_model(name: str) -> bool:
    return name.strip().lower().startswith(REASONING_PREFIXES)


def service_effort(effort: str | None) -> str | None:
    """The service's reasoning effort for the agent's `openai.effort`."""
    return EFFORTS.get(effort) if effort is not None else None
