"""What the server answers `initialize` with, and what the session reads from the same
params: for every recorded client and every part that depends on the client, the two
agree (the position encoding, pull diagnostics)."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

import pytest
from lsprotocol.converters import get_converter
from pytest_lsp import client_capabilities

from holodeck_lsp import __version__
from holodeck_lsp.server.capabilities import ClientFeatures
from holodeck_lsp.server.initialization import read_params
from holodeck_lsp.server.main import create_server
from holodeck_lsp.server.settings import Settings
from holodeck_lsp.server.worker import Worker

CLIENTS = ["visual-studio-code", "neovim@v0.6.1", "neovim@v0.10.0", "emacs@v29.1"]


def _recorded(name: str) -> dict[str, Any]:
    caps: dict[str, Any] = get_converter().unstructure(client_capabilities(name))
    return caps


def _with(caps: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    changed = copy.deepcopy(caps)
    *parents, last = path.split(".")
    node = changed
    for part in parents:
        node = node.setdefault(part, {})
    node[last] = value
    return changed


VSCODE = _recorded("visual-studio-code")
VARIANTS = {
    "no capabilities": {},
    "pull diagnostics": _with(VSCODE, "textDocument.diagnostic", {"relatedDocumentSupport": True}),
    "pull diagnostics, no details": _with({}, "textDocument.diagnostic", {}),
    "utf-32 first": _with({}, "general.positionEncodings", ["utf-32", "utf-8"]),
    "unknown encodings only": _with({}, "general.positionEncodings", ["utf-7", "ebcdic"]),
    "unknown encoding first": _with({}, "general.positionEncodings", ["utf-7", "utf-8"]),
    "empty encodings": _with({}, "general.positionEncodings", []),
    **{name: _recorded(name) for name in CLIENTS},
}


class _Written:
    def __init__(self) -> None:
        self.frames: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.frames.append(data)

    def close(self) -> None:
        pass


def _pygls_answer(params: dict[str, Any]) -> Any:
    """What the server's pygls side answers `initialize` with, computed in this process."""
    server = create_server(Worker("unused"))  # type: ignore[arg-type]
    written = _Written()
    server.protocol.set_writer(written)
    message = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}

    async def initialize() -> None:
        protocol = server.protocol
        protocol.handle_message(json.loads(json.dumps(message),
                                           object_hook=protocol.structure_message))

    asyncio.run(initialize())
    body = written.frames[-1].split(b"\r\n\r\n", 1)[1]
    return json.loads(body)["result"]


def test_a_client_without_capabilities_is_answered_with_every_feature() -> None:
    params = {"processId": None, "rootUri": None, "capabilities": {}}
    assert _pygls_answer(params) == {
        "capabilities": {
            "positionEncoding": "utf-16",
            "textDocumentSync": {"openClose": True, "change": 2, "save": {"includeText": False}},
            "completionProvider": {"triggerCharacters": [":", " ", "-"]},
            "hoverProvider": True,
            "definitionProvider": True,
            "documentSymbolProvider": True,
            "codeActionProvider": {"codeActionKinds": ["quickfix", "refactor.rewrite"]},
            "codeLensProvider": {"resolveProvider": False},
            "executeCommandProvider": {
                "commands": ["holodeck.runCase", "holodeck.runTurn", "holodeck.showReport"]
            },
            "workspace": {
                "workspaceFolders": {"supported": True, "changeNotifications": True},
                "fileOperations": {},
            },
        },
        "serverInfo": {"name": "holodeck-lsp", "version": __version__},
    }


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_answer_and_the_session_agree(name: str) -> None:
    params = {"processId": None, "rootUri": None, "capabilities": VARIANTS[name]}
    capabilities = _pygls_answer(params)["capabilities"]
    start = read_params(params)
    assert capabilities["positionEncoding"] == start.encoding
    assert ("diagnosticProvider" in capabilities) == start.features.pull_diagnostics
    if start.features.pull_diagnostics:
        assert capabilities["diagnosticProvider"] == {
            "interFileDependencies": True, "workspaceDiagnostics": False,
            "identifier": "holodeck"}


def test_the_session_reads_features_roots_and_settings_from_the_params() -> None:
    params = {
        "processId": None,
        "rootUri": "file:///elsewhere",
        "workspaceFolders": [{"uri": "file:///w/one", "name": "one"}, {"name": "no uri"}],
        "initializationOptions": {"workspaceTrusted": True, "files": 7},
        "capabilities": _with(VSCODE, "general.positionEncodings", ["utf-8"]),
    }
    start = read_params(params)
    assert start.features == ClientFeatures(
        code_lens_refresh=True, related_information=True,
        snippets=True, completion_markdown=True, hover_markdown=True,
        hierarchical_symbols=True, code_action_literals=True, configuration=True,
        dynamic_configuration=True, dynamic_watchers=True, insert_as_is=True)
    assert start.encoding == "utf-8"
    assert start.roots == (Path("/w/one"),)
    assert start.settings == Settings(workspace_trusted=True)
    assert start.problems == ("files must be an object, got 7",)


@pytest.mark.parametrize("params", [None, 7, {"capabilities": 7}, {
    "capabilities": {"textDocument": 5, "general": {"positionEncodings": "utf-8"},
                     "workspace": {"configuration": "yes"}},
    "workspaceFolders": "x", "rootUri": 5, "rootPath": "/r"}])
def test_params_of_the_wrong_shape_count_as_absent(params: Any) -> None:
    start = read_params(params)
    configuration = isinstance(params, dict) and isinstance(params["capabilities"], dict)
    assert start.features == ClientFeatures(configuration=configuration)
    assert start.encoding == "utf-16"
    assert start.roots == ((Path("/r"),) if configuration else ())
