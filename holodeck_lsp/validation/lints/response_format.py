"""`response_format`: a schema file that is missing (HL610) or not a JSON object (HL611),
a schema that is not a JSON Schema (HL612). HoloDeck loads such an agent; `holodeck test`
then fails before its first reply."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from holodeck_lsp.validation.collector import Collector
from holodeck_lsp.validation.context import ValidationContext
from holodeck_lsp.validation.output_schema import resolve_schema


def response_format_rules(
    logical: dict[str, Any], collector: Collector, base: Path, ctx: ValidationContext
) -> None:
    value = logical.get("response_format")
    if isinstance(value, str) and "${" in value:
        return  # which file is read is known only once the variable is set
    problem = resolve_schema(value, base, ctx.read).problem
    if problem is not None:
        collector.emit(("response_format", *problem.at), problem.code, problem.message)
