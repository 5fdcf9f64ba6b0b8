"""What the client can do, resolved once at `initialize` into plain booleans."""

from __future__ import annotations

from dataclasses import dataclass

from lsprotocol import types
from pygls.capabilities import get_capability


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


def _has(caps: types.ClientCapabilities, path: str) -> bool:
    return bool(get_capability(caps, path, False))


def resolve(caps: types.ClientCapabilities) -> ClientFeatures:
    markdown = types.MarkupKind.Markdown
    modes = get_capability(
        caps,
        "text_document.completion.completion_item.insert_text_mode_support.value_set",
        [],
    )
    return ClientFeatures(
        pull_diagnostics=get_capability(caps, "text_document.diagnostic", None) is not None,
        diagnostic_refresh=_has(caps, "workspace.diagnostics.refresh_support"),
        code_lens_refresh=_has(caps, "workspace.code_lens.refresh_support"),
        versioned_diagnostics=_has(caps, "text_document.publish_diagnostics.version_support"),
        related_information=_has(caps, "text_document.publish_diagnostics.related_information"),
        snippets=_has(caps, "text_document.completion.completion_item.snippet_support"),
        completion_markdown=markdown
        in (
            get_capability(
                caps, "text_document.completion.completion_item.documentation_format", []
            )
            or []
        ),
        hover_markdown=markdown
        in (get_capability(caps, "text_document.hover.content_format", []) or []),
        hierarchical_symbols=_has(
            caps, "text_document.document_symbol.hierarchical_document_symbol_support"
        ),
        code_action_literals=get_capability(
            caps, "text_document.code_action.code_action_literal_support", None
        )
        is not None,
        configuration=_has(caps, "workspace.configuration"),
        dynamic_configuration=_has(caps, "workspace.did_change_configuration.dynamic_registration"),
        dynamic_watchers=_has(caps, "workspace.did_change_watched_files.dynamic_registration"),
        insert_as_is=types.InsertTextMode.AsIs in (modes or []),
    )
