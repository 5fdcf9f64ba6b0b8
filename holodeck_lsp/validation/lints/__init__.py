"""Rules beyond the models, one module per family: graders, other files, and what
HoloDeck tolerates but cannot work as written (warnings). They walk the logical data
the models were validated on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from holodeck_lsp.graders.signatures import Signature
from holodeck_lsp.validation.collector import Collector
from holodeck_lsp.validation.context import ValidationContext
from holodeck_lsp.validation.lints.backend_refusals import backend_refusal_rules
from holodeck_lsp.validation.lints.cases import file_rules, text_rules
from holodeck_lsp.validation.lints.expected_tools import (
    declared_tool_names,
    function_signatures,
    tool_rules,
)
from holodeck_lsp.validation.lints.graders import metric_rules
from holodeck_lsp.validation.lints.lax_values import lax_value_rules
from holodeck_lsp.validation.lints.response_format import response_format_rules
from holodeck_lsp.validation.lints.run_differences import run_difference_rules
from holodeck_lsp.validation.lints.upgrade_from_06 import upgrade_rules
from holodeck_lsp.validation.lints.walk import places
from holodeck_lsp.validation.named import Project


def lint_test_cases(
    logical: dict[str, Any],
    collector: Collector,
    base: Path,
    ctx: ValidationContext,
    project: Project,
    tool_names: list[str] | None,
    standalone: bool = True,
    signatures: dict[str, Signature] | None = None,
) -> set[Path]:
    """Emits every lint; returns the grader modules the metrics name (they exist)."""
    found = places(logical)
    for path, exchange in found.exchanges:
        text_rules(path, exchange, collector)
        tool_rules(path, exchange, collector, tool_names, signatures)
        file_rules(path, exchange, collector, base, project)
    modules = metric_rules(found.metrics, collector, base, ctx, standalone)
    run_difference_rules(logical, found, collector)
    lax_value_rules(logical, found, collector)
    return modules


def lint_agent(
    logical: dict[str, Any],
    collector: Collector,
    base: Path,
    ctx: ValidationContext,
    project: Project,
) -> set[Path]:
    tools = declared_tool_names(logical)
    signatures = function_signatures(logical, base, ctx, project.root) if tools else None
    resolved = response_format_rules(logical, collector, base, ctx, project)
    schema = resolved.schema if resolved is not None else None
    inline = isinstance(logical.get("response_format"), dict)
    upgrade_rules(logical, collector, base, schema, inline)
    backend_refusal_rules(logical, collector)
    return lint_test_cases(
        logical, collector, base, ctx, project, tools, standalone=False, signatures=signatures
    )
