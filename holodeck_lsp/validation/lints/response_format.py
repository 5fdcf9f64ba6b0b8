"""`response_format`: a schema file that is missing (HL610) or not a JSON object (HL611),
a schema that is not a JSON Schema (HL612). HoloDeck loads such an agent; `holodeck test`
then fails before its first reply."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from holodeck_lsp.validation.collector import Collector
from holodeck_lsp.validation.context import ValidationContext
from holodeck_lsp.validation.named import Project, read_named
from holodeck_lsp.validation.output_schema import (
    MISSING_CODE,
    ResolvedSchema,
    described,
    file_schema,
    inline_schema,
    schema_file,
)


def response_format_rules(
    logical: dict[str, Any],
    collector: Collector,
    base: Path,
    ctx: ValidationContext,
    project: Project,
) -> ResolvedSchema | None:
    """Emits HL610-HL612; returns the schema resolved (None when there is none)."""
    value = logical.get("response_format")
    resolved: ResolvedSchema | None = None
    withheld = False
    if isinstance(value, dict):
        resolved = inline_schema(value)
    elif isinstance(value, str) and "${" not in value:  # with one, the file is known at run
        target = schema_file(value, base)
        where = ("response_format",)
        text = read_named(target, described(value), where, collector, ctx, project, MISSING_CODE)
        resolved = file_schema(text, value, target) if text is not None else None
        withheld = str(target) in project.outside  # its content is never shown
    if resolved is not None and resolved.problem is not None:
        problem = resolved.problem
        message = problem.summary if withheld else problem.message
        collector.emit(("response_format", *problem.at), problem.code, message)
    return resolved
