"""Keys the project `config.yaml` may supply are not required in the agent file."""

from __future__ import annotations

import copy
from typing import Any

from holodeck_lsp.schema.nodes import DEFS, Schema, refs_in, walk


def _reachable(defs: dict[str, Schema], start: Any) -> set[str]:
    seen: set[str] = set()
    todo = refs_in(start)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo |= refs_in(defs[name])
    return seen


def relax_config_fillable(defs: dict[str, Schema]) -> None:
    """Keys the project config may fill in are not required in the agent file itself.

    Its named provider fills the agent's `model` and `evaluations.model`, and its
    `deployment` is merged under the agent's own; `check` validates after the merge.
    """
    merged = copy.deepcopy(defs["LLMProvider"])
    merged["required"] = ["provider"]
    merged["description"] += (
        " Keys not given here come from the project config's provider of the same name."
    )
    defs["MergedLLMProvider"] = merged
    for owner in ("Agent", "EvaluationConfig"):
        for node in walk(defs[owner]["properties"]["model"]):
            if node.get("$ref") == DEFS + "LLMProvider":
                node["$ref"] = DEFS + "MergedLLMProvider"
    agent = defs["Agent"]["properties"]
    elsewhere = _reachable(defs, {k: v for k, v in agent.items() if k != "deployment"})
    for name in _reachable(defs, agent["deployment"]) - elsewhere:
        defs[name].pop("required", None)
