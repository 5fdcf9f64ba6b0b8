"""What the client can do, resolved once at `initialize` into plain booleans.

Read from the `initialize` params as JSON (camelCase paths), not from lsprotocol's
objects, so that params pygls cannot read still give the client's features: a part of
the wrong type counts as absent.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from holodeck_lsp.server.positions import UTF8, UTF16, UTF32

_MARKDOWN = "markdown"
_INSERT_AS_IS = 1  # InsertTextMode.AsIs
_ENCODINGS = (UTF8, UTF16, UTF32)


@dataclass(frozen=True)
class ClientFeatures:
    pull_diagnostics: bool = False
    diagnostic_refresh: bool = False
    code_lens_refresh: bool = False
    versioned_diagnostics: bool = False
    related_information: bool = False
    snippets: bool = False
    completion_markdown: bool = False
    hover_markdown: bool = False
    hierarchical_symbols: bool = False
    code_action_literals: bool = False
    configuration: bool = False
    dynamic_configuration: bool = False
    dynamic_watchers: bool = False
    insert_as_is: bool = False


def capability(caps: Any, path: str) -> Any:
    """The value at a dotted camelCase path of the capabilities, or None."""
    value = caps
    for part in path.split("."):
        if not isinstance(value, Mapping):
            return None
        value = value.get(part)
    return value


def _has(caps: Any, path: str) -> bool:
    return bool(capability(caps, path))


def _listed(caps: Any, path: str, item: object) -> bool:
    values = capability(caps, path)
    return isinstance(values, list) and item in values


def resolve(caps: Any) -> ClientFeatures:
    """The features of the client's `capabilities` object (JSON)."""
    return ClientFeatures(
        pull_diagnostics=capability(caps, "textDocument.diagnostic") is not None,
        diagnostic_refresh=_has(caps, "workspace.diagnostics.refreshSupport"),
        code_lens_refresh=_has(caps, "workspace.codeLens.refreshSupport"),
        versioned_diagnostics=_has(caps, "textDocument.publishDiagnostics.versionSupport"),
        related_information=_has(caps, "textDocument.publishDiagnostics.relatedInformation"),
        snippets=_has(caps, "textDocument.completion.completionItem.snippetSupport"),
        completion_markdown=_listed(
            caps, "textDocument.completion.completionItem.documentationFormat", _MARKDOWN),
        hover_markdown=_listed(caps, "textDocument.hover.contentFormat", _MARKDOWN),
        hierarchical_symbols=_has(
            caps, "textDocument.documentSymbol.hierarchicalDocumentSymbolSupport"),
        code_action_literals=capability(
            caps, "textDocument.codeAction.codeActionLiteralSupport") is not None,
        configuration=_has(caps, "workspace.configuration"),
        dynamic_configuration=_has(caps, "workspace.didChangeConfiguration.dynamicRegistration"),
        dynamic_watchers=_has(caps, "workspace.didChangeWatchedFiles.dynamicRegistration"),
        insert_as_is=_listed(
            caps, "textDocument.completion.completionItem.insertTextModeSupport.valueSet",
            _INSERT_AS_IS),
    )


def position_encoding(caps: Any) -> str:
    """The encoding positions are counted in: the client's first choice among those the
    server supports, else UTF-16 (pygls's choice, from the same list)."""
    offered = capability(caps, "general.positionEncodings")
    if isinstance(offered, list):
        for encoding in offered:
            if encoding in _ENCODINGS:
                return str(encoding)
    return UTF16
