"""What `initialize` decides, read from its params as JSON: the client's features, the
position encoding, the workspace roots and the settings of `initializationOptions`
(`features/lifecycle.py` applies them to the session; pygls answers with the server's
capabilities, from the routes of `server.main` and the constants here).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from holodeck_lsp.server.capabilities import ClientFeatures, position_encoding, resolve
from holodeck_lsp.server.open_documents import uri_path
from holodeck_lsp.server.settings import Settings, parse_settings

SERVER_NAME = "holodeck-lsp"
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
