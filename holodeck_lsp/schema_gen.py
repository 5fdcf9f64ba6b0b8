"""JSON Schemas generated from the models (never written by hand)."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

KINDS = ("agent", "test-cases")


def _root(kind: str) -> type[BaseModel]:
    from holodeck_lsp.core.validate import TestCasesFile
    from holodeck_lsp.models.agent import Agent

    return Agent if kind == "agent" else TestCasesFile


def generate(kind: str) -> dict[str, Any]:
    schema = _root(kind).model_json_schema()
    schema["$schema"] = "http://json-schema.org/draft-07/schema#"
    return schema


def render(kind: str) -> str:
    return json.dumps(generate(kind), indent=2, sort_keys=False) + "\n"
