"""A validation outcome in the protocol's objects, built on the server's side when the
worker's outcome arrives (the worker places each diagnostic but never loads lsprotocol)."""

from __future__ import annotations

from lsprotocol import types

from holodeck_lsp.server.jobs import SOURCE, Outcome, Placed, Span
from holodeck_lsp.validation.diagnostics import Diagnostic, Severity

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFORMATION: types.DiagnosticSeverity.Information,
    Severity.HINT: types.DiagnosticSeverity.Hint,
}


def _range(span: Span) -> types.Range:
    return types.Range(types.Position(span[0], span[1]), types.Position(span[2], span[3]))


def to_lsp(d: Diagnostic, placed: Placed) -> types.Diagnostic:
    related = None
    if placed.related is not None:
        related = [types.DiagnosticRelatedInformation(types.Location(uri, _range(where)), message)
                   for uri, where, message in placed.related]
    return types.Diagnostic(
        range=_range(placed.range),
        message=d.message,
        severity=_SEVERITY[d.severity],
        code=d.code,
        source=SOURCE,
        related_information=related,
        data={"fix": d.data} if d.data else None,
    )


def attach(outcome: Outcome) -> Outcome:
    """Fill ``outcome.lsp`` from its core diagnostics and their placement."""
    for path, placed in outcome.placed.items():
        outcome.lsp[path] = [to_lsp(d, where) for d, where in
                             zip(outcome.core.get(path, []), placed, strict=True)]
    outcome.placed = {}
    return outcome
