"""A pytest-lsp client for the real server in a subprocess, and helpers to drive it.

Two kinds of client: a push client (Neovim 0.7's declared capabilities: pushed
diagnostics only, no snippets, no workspace/configuration) and a pull client (VS Code's
capabilities plus pull diagnostics). Every wait awaits a protocol event; none sleeps.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

FIXTURES = Path(__file__).parent / "fixtures"
SERVER = [sys.executable, "-m", "holodeck_lsp.server"]
# The same server validating on a thread, not in a worker process (thread_worker_server.py):
# for a test whose subject is neither that process nor its limits.
THREAD_WORKER_SERVER = [sys.executable, "-m", "tests.server.thread_worker_server"]
PUBLISH = types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS
SOURCE = "holodeck-lsp"


class Client(LanguageClient):
    """A pytest-lsp client that keeps every notification and registration it receives."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.published: list[types.PublishDiagnosticsParams] = []
        self.registrations: list[types.Registration] = []
        self.code_lens_refresh_count = 0
        self.opened: dict[str, None] = {}  # every document open_doc opened, in order
        self._arrived: asyncio.Event | None = None

    def arrived(self) -> asyncio.Event:
        if self._arrived is None:
            self._arrived = asyncio.Event()
        return self._arrived

    def notify_arrival(self) -> None:
        if self._arrived is not None:
            self._arrived.set()

    async def until(self, check: Callable[[], Any], timeout: float = 60.0) -> Any:
        """Await the first received message after which ``check()`` is truthy."""

        async def wait() -> Any:
            while True:
                event = self.arrived()
                event.clear()
                found = check()
                if found:
                    return found
                await event.wait()

        return await asyncio.wait_for(wait(), timeout)

    async def diagnostics_of(
        self, uri: str, version: int | None = None, after: int = 0
    ) -> list[types.Diagnostic]:
        """The first diagnostics published for ``uri`` (at ``version``) after index ``after``."""

        def check() -> list[types.Diagnostic] | None:
            for params in self.published[after:]:
                if params.uri == uri and (version is None or params.version == version):
                    return list(params.diagnostics) or [_EMPTY]
            return None

        found = await self.until(check)
        return [] if found == [_EMPTY] else list(found)


_EMPTY = types.Diagnostic(
    range=types.Range(types.Position(0, 0), types.Position(0, 0)), message="(none)"
)


def _publish(client: Client, params: types.PublishDiagnosticsParams) -> None:
    client.published.append(params)
    client.diagnostics[params.uri] = params.diagnostics
    client.notify_arrival()


def _register(client: Client, params: types.RegistrationParams) -> None:
    client.registrations.extend(params.registrations)
    client.notify_arrival()


def _log(client: Client, params: types.LogMessageParams) -> None:
    client.log_messages.append(params)
    client.notify_arrival()


def _refresh(client: Client, params: None) -> None:
    client.diagnostic_refresh_count += 1
    client.notify_arrival()


def _code_lens_refresh(client: Client, params: None) -> None:
    client.code_lens_refresh_count += 1
    client.notify_arrival()


def make_client() -> Client:
    client = Client()
    register_lsp_features(
        client,
        {
            **DEFAULT_CLIENT_FEATURES,
            PUBLISH: _publish,
            types.WINDOW_LOG_MESSAGE: _log,
            types.CLIENT_REGISTER_CAPABILITY: _register,
            types.WORKSPACE_DIAGNOSTIC_REFRESH: _refresh,
            types.WORKSPACE_CODE_LENS_REFRESH: _code_lens_refresh,
        },
    )
    return client


def neovim_capabilities() -> types.ClientCapabilities:
    """Neovim 0.7 as it declares itself: pushed diagnostics, no snippets, no configuration."""
    return client_capabilities("neovim@v0.7.0")


def push_capabilities() -> types.ClientCapabilities:
    """Neovim 0.7, plus versioned pushed diagnostics (so tests can await one version)."""
    caps = neovim_capabilities()
    assert caps.text_document is not None and caps.text_document.publish_diagnostics
    caps.text_document.publish_diagnostics.version_support = True
    return caps


def pull_capabilities() -> types.ClientCapabilities:
    """VS Code, plus the pull-diagnostics support of current releases."""
    caps = client_capabilities("visual-studio-code")
    assert caps.text_document is not None and caps.workspace is not None
    caps.text_document.diagnostic = types.DiagnosticClientCapabilities(
        related_document_support=True
    )
    caps.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    return caps


def server_env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["HOME"] = str(home)  # no user config.yaml from the machine running the tests
    env["XDG_CACHE_HOME"] = str(_code_cache_home())  # nor its code cache
    env.setdefault("HOLODECK_LSP_LOG", "warning")
    return env


_code_cache: list[Path] = []


def _code_cache_home() -> Path:
    """The servers' code cache (server/code_cache.py) of this test process, not the
    machine's: the first server fills it, every later one starts from it, as an editor's
    second start does. Removed when the process ends."""
    if not _code_cache:
        _code_cache.append(Path(tempfile.mkdtemp(prefix="holodeck-lsp-code-cache-")))
        atexit.register(shutil.rmtree, _code_cache[0], ignore_errors=True)
    return _code_cache[0]


async def start(
    workspace: Path,
    capabilities: types.ClientCapabilities,
    options: Any = None,
    configuration: Any = None,
    command: list[str] | None = None,
    cwd: Path | None = None,
) -> Client:
    """The server (``command``, else ``python -m holodeck_lsp.server``; started in ``cwd``)
    initialized on ``workspace``."""
    home = workspace.parent / "home"
    home.mkdir(exist_ok=True)
    if cwd is None:
        config = ClientServerConfig(
            server_command=command or SERVER, client_factory=make_client,
            server_env=server_env(home),
        )  # fmt: skip
        client = await config.start()
    else:  # as pytest-lsp starts it, in another folder
        client = make_client()
        await client.start_io(*(command or SERVER), env=server_env(home), cwd=cwd)
    assert isinstance(client, Client)
    if configuration is not None:
        client.set_configuration(configuration, section="holodeck")
    await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities,
            root_uri=uri(workspace),
            workspace_folders=[types.WorkspaceFolder(uri(workspace), "ws")],
            initialization_options=options,
        )
    )
    return client


async def stop(client: Client) -> None:
    await client.shutdown_session()
    await client.stop()  # type: ignore[no-untyped-call]


def uri(path: Path) -> str:
    found = from_fs_path(str(path))
    assert found is not None
    return str(found)


def open_doc(client: Client, path: Path, text: str | None = None, version: int = 1) -> str:
    doc_uri = uri(path)
    client.opened[doc_uri] = None
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(
                doc_uri, "yaml", version, path.read_text(encoding="utf-8") if text is None else text
            )
        )
    )
    return doc_uri


def replace_all(client: Client, doc_uri: str, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=version, uri=doc_uri),
            [types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def edit(
    client: Client,
    doc_uri: str,
    version: int,
    start: tuple[int, int],
    end: tuple[int, int],
    text: str,
) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=version, uri=doc_uri),
            [
                types.TextDocumentContentChangePartial(
                    range=types.Range(types.Position(*start), types.Position(*end)), text=text
                )
            ],
        )
    )


def diag(
    start: tuple[int, int],
    end: tuple[int, int],
    code: str,
    message: str,
    severity: types.DiagnosticSeverity = types.DiagnosticSeverity.Error,
    data: Any = None,
    related: list[types.DiagnosticRelatedInformation] | None = None,
) -> types.Diagnostic:
    """An expected diagnostic, as the server sends it."""
    return types.Diagnostic(
        range=types.Range(types.Position(*start), types.Position(*end)),
        message=message,
        severity=severity,
        code=code,
        source=SOURCE,
        data=data,
        related_information=related,
    )


async def pull_report(client: Client, doc_uri: str, previous: str | None = None) -> Any:
    return await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(doc_uri), previous_result_id=previous
        )
    )


def apply_edits(text: str, edits: list[types.TextEdit]) -> str:
    """A client applying edits (ASCII text: characters are UTF-16 units)."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def offset(p: types.Position) -> int:
        return starts[p.line] + p.character

    for e in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[: offset(e.range.start)] + e.new_text + text[offset(e.range.end) :]
    return text
