"""JSON Schemas (draft-07) generated from the models, never written by hand: the passes in order.

Pydantic produces the schema (`raw.py`, which marks the tagged unions and strict scalars
it meets); the passes, one module each, turn it into what YAML editors work best with:

- tagged unions become `if`/`then` on their `type` key, so a bad entry gets one error
  from its own kind instead of "matches none of";
- rules that live in validators (matchers, `turns` beside single-turn keys, blank text,
  limits) are added from the constants and validators the models use;
- a value holding a `${VAR}` reference is accepted wherever it stands, and so are the
  conversions the models make (a quoted number, ...), as HoloDeck substitutes and
  converts before it validates;
- keys the project `config.yaml` may supply are not required in the agent file;
- every property carries `description` and `markdownDescription`, and editors get
  `defaultSnippets` for a new test case, turn and expected tool.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import model_json_schema

from holodeck_lsp.schema.config_fillable import relax_config_fillable
from holodeck_lsp.schema.docs import add_snippets, describe, markdown
from holodeck_lsp.schema.nodes import ANNOTATIONS, DEFS, Schema
from holodeck_lsp.schema.raw import SchemaGenerator, models_of
from holodeck_lsp.schema.rules import add_cross_field_rules, add_field_rules
from holodeck_lsp.schema.tidy import tidy
from holodeck_lsp.schema.unions import expand_unions, inline_enums

KINDS = ("agent", "test-cases")
FILE_NAMES = {
    "agent": "holodeck-agent.schema.json",
    "test-cases": "holodeck-test-cases.schema.json",
}
DRAFT_07 = "http://json-schema.org/draft-07/schema#"


def command(kind: str) -> str:
    """The command that writes the committed schema of ``kind``."""
    return f"holodeck-lsp schema --kind {kind} --output schema/{FILE_NAMES[kind]}"


def generate(kind: str) -> dict[str, Any]:
    """The schema of agent files (``agent``) or test-case files (``test-cases``)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}")
    root = _root(kind)
    raw = model_json_schema(root, ref_template=DEFS + "{model}", schema_generator=SchemaGenerator)
    defs: dict[str, Schema] = raw.pop("$defs", {})
    defs[root.__name__] = raw
    expand_unions(defs)
    inline_enums(defs)
    add_field_rules(defs, models_of(root), kind)
    if kind == "agent":
        relax_config_fillable(defs)
    for name, definition in defs.items():
        defs[name] = tidy(definition)
    add_cross_field_rules(defs)
    describe(defs)
    add_snippets(defs)
    return assemble(kind, defs, root.__name__)


def render(kind: str) -> str:
    """The schema as the committed file holds it."""
    return json.dumps(generate(kind), indent=2, ensure_ascii=False) + "\n"


def _root(kind: str) -> type[BaseModel]:
    from holodeck_lsp.models.agent import Agent
    from holodeck_lsp.models.test_cases_file import TestCasesFile

    return Agent if kind == "agent" else TestCasesFile


def assemble(kind: str, defs: dict[str, Schema], root_name: str) -> dict[str, Any]:
    schema: Schema = {
        "$schema": DRAFT_07,
        "$comment": f"Generated from the holodeck-lsp models by `{command(kind)}`; do not edit.",
    }
    root = defs.pop(root_name)
    if kind == "agent":
        schema.update(root, title="HoloDeck agent")
    else:
        cases = root["properties"]["test_cases"]
        cases.setdefault("description", "The test cases of this file.")
        cases["markdownDescription"] = markdown(cases)
        root["description"] = root["markdownDescription"] = "A mapping with a `test_cases:` list."
        # An empty file (or `{}`) is an empty suite.
        root["if"] = {"minProperties": 1}
        root["then"] = {"required": root.pop("required")}
        described = "A list of test cases, or a mapping with a `test_cases:` list."
        schema.update(
            title="HoloDeck test cases",
            description=f"A test-case file, named by an agent's `test_cases_file`. {described}",
            type=["array", "object"],
        )
        schema["if"] = {"type": "array"}
        schema["then"] = {k: v for k, v in cases.items() if k not in ANNOTATIONS}
        schema["else"] = root
    schema["definitions"] = dict(sorted(defs.items()))
    return schema
