"""Structured output as `holodeck test` applies it: the agent's `response_format` schema
goes with every model request, and the final reply must be JSON that follows it.

The schema is resolved where `check` resolves it (`validation/output_schema.py`). The
facts kept from HoloDeck 0.7.1 (`lib/backends/openai_agents_output.py`): strict mode only
when the schema already qualifies (a top-level object with `additionalProperties: false`
that requires every property), never a rewritten schema; a reply that is not JSON, or
JSON that breaks the schema, fails the agent's run; a valid reply is reported
re-serialised.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from holodeck_lsp.named_files import MAX_NAMED_BYTES, read_text
from holodeck_lsp.nesting import TooDeep, loads
from holodeck_lsp.runner.services.failures import AgentRunFailed
from holodeck_lsp.runner.services.service_targets import BackendConfigError
from holodeck_lsp.validation.output_schema import resolve_schema

# The name the schema carries on the wire (the OpenAI Agents SDK's, whatever HoloDeck
# names it internally).
SCHEMA_NAME = "final_output"


class ReplyRejected(Exception):
    """The final reply does not satisfy the schema; the message says why, as HoloDeck's
    `ModelBehaviorError` does."""


def qualifies_for_strict(schema: dict[str, Any]) -> bool:
    properties = schema.get("properties")
    required = schema.get("required")
    return (
        schema.get("type") == "object"
        and schema.get("additionalProperties") is False
        and isinstance(properties, dict)
        and isinstance(required, list)
        and set(properties) == set(required)
    )


@dataclass(frozen=True)
class OutputSchema:
    schema: dict[str, Any]

    @property
    def strict(self) -> bool:
        return qualifies_for_strict(self.schema)

    def violation(self, value: Any) -> str | None:
        """Why ``value`` breaks the schema (jsonschema's most relevant error), or None."""
        import jsonschema  # only agents with a response_format pay for the import

        try:
            jsonschema.validate(instance=value, schema=self.schema)
        except jsonschema.ValidationError as exc:
            return exc.message
        except jsonschema.SchemaError as exc:  # `check` warns HL612 before any run
            return f"the schema is not a JSON Schema: {exc.message}"
        except RecursionError:  # both are within MAX_DEPTH; a guard all the same
            return "it nests too deeply for jsonschema to check it"
        return None

    def accept(self, text: str) -> str:
        """The reply as the report records it; raises `ReplyRejected`."""
        try:
            parsed = loads(text)
        except TooDeep as exc:
            raise ReplyRejected(f"Output holds {exc}") from None
        except ValueError as exc:
            raise ReplyRejected(f"Output is not valid JSON: {exc}") from None
        problem = self.violation(parsed)
        if problem is not None:
            raise ReplyRejected(f"Output does not match response_format schema: {problem}")
        return reported_text(parsed)


def final_reply(output: OutputSchema | None, text: str) -> str:
    """The final reply as reported; with a schema, the agent's run fails when the text is
    not JSON that follows it, as HoloDeck's `ModelBehaviorError` fails it."""
    if output is None:
        return text
    try:
        return output.accept(text)
    except ReplyRejected as exc:
        raise AgentRunFailed(f"ModelBehaviorError: {exc}") from None


def reported_text(parsed: Any) -> str:
    """How HoloDeck reports a reply that passed: an object as JSON, a string as itself,
    `null` as nothing, anything else as Python prints it."""
    if isinstance(parsed, dict):
        return json.dumps(parsed)
    if isinstance(parsed, str):
        return parsed
    return "" if parsed is None else str(parsed)


def load_output_schema(response_format: object, folder: Path) -> OutputSchema | None:
    """The agent's schema, or None; raises `BackendConfigError` where `holodeck test`
    fails before its first reply (and `check` warns HL610-HL612)."""
    resolved = resolve_schema(response_format, folder, lambda p: read_text(p, MAX_NAMED_BYTES))
    if resolved.problem is not None:
        raise BackendConfigError(resolved.problem.message)
    return OutputSchema(resolved.schema) if resolved.schema is not None else None
