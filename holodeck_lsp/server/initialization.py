"""What `initialize` decides, read from its params as JSON: the client's features, the
position encoding, the workspace roots and the settings of `initializationOptions`; and
the answer, the server's capabilities.

Both the session (`features/lifecycle.py`) and the answer given before lsprotocol and
pygls have loaded (`first_messages.py`) read the params here. The answer is the one
pygls computes from the routes of `server.main` for the same client:
tests/server/unit/test_initialization.py keeps the two equal, for the recorded clients
and for every part that depends on the client.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from holodeck_lsp import __version__
from holodeck_lsp.server.capabilities import ClientFeatures, capability, position_encoding, resolve
from holodeck_lsp.server.open_documents import uri_path
from holodeck_lsp.server.settings import Settings, parse_settings

SERVER_NAME = "holodeck-lsp"
TEXT_DOCUMENT_SYNC_INCREMENTAL = 2
TRIGGER_CHARACTERS = (":", " ", "-")
CODE_ACTION_KINDS = ("quickfix", "refactor.rewrite")
COMMANDS = ("holodeck.runCase", "holodeck.runTurn", "holodeck.showReport")
DIAGNOSTIC_IDENTIFIER = "holodeck"


@dataclass(frozen=True)
class Start:
    """The session's state as `initialize` leaves it."""

    features: ClientFeatures
    encoding: str
    roots: tuple[Path, ...]
    settings: Settings
    problems: tuple[str, ...]  # what was wrong with initializationOptions


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _roots(params: Mapping[str, Any]) -> tuple[Path, ...]:
    folders = params.get("workspaceFolders")
    uris = [_text(f.get("uri")) for f in folders if isinstance(f, Mapping)] if isinstance(
        folders, list) else []
    roots = [uri_path(uri) for uri in uris if uri is not None]
    if roots:
        return tuple(roots)
    if (root_uri := _text(params.get("rootUri"))) is not None:
        return (uri_path(root_uri),)
    if (root_path := _text(params.get("rootPath"))) is not None:
        return (uri_path(f"file://{root_path}"),)
    return ()


def read_params(params: Any) -> Start:
    """The session's start from the `initialize` params (anything not JSON-shaped as the
    protocol says counts as absent)."""
    if not isinstance(params, Mapping):
        params = {}
    caps = params.get("capabilities")
    settings, problems = parse_settings(params.get("initializationOptions"), Settings())
    return Start(resolve(caps), position_encoding(caps), _roots(params), settings,
                 tuple(problems))


def answer(params: Any, start: Start) -> dict[str, Any]:
    """The `initialize` result, as JSON: what pygls would send for these params."""
    caps = params.get("capabilities") if isinstance(params, Mapping) else None
    sync: dict[str, Any] = {"openClose": True, "change": TEXT_DOCUMENT_SYNC_INCREMENTAL}
    # pygls states willSave and willSaveWaitUntil (false: the server wants neither) only
    # to a client that declares them either way.
    for name in ("willSave", "willSaveWaitUntil"):
        if capability(caps, f"textDocument.synchronization.{name}") is not None:
            sync[name] = False
    sync["save"] = {"includeText": False}
    capabilities: dict[str, Any] = {
        "positionEncoding": start.encoding,
        "textDocumentSync": sync,
        "completionProvider": {"triggerCharacters": list(TRIGGER_CHARACTERS)},
        "hoverProvider": True,
        "definitionProvider": True,
        "documentSymbolProvider": True,
        "codeActionProvider": {"codeActionKinds": list(CODE_ACTION_KINDS)},
        "codeLensProvider": {"resolveProvider": False},
        "executeCommandProvider": {"commands": list(COMMANDS)},
        "workspace": {
            "workspaceFolders": {"supported": True, "changeNotifications": True},
            "fileOperations": {},
        },
    }
    if start.features.pull_diagnostics:
        capabilities["diagnosticProvider"] = {
            "interFileDependencies": True, "workspaceDiagnostics": False,
            "identifier": DIAGNOSTIC_IDENTIFIER}
    return {"capabilities": capabilities,
            "serverInfo": {"name": SERVER_NAME, "version": __version__}}
