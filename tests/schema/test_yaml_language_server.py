"""The real yaml-language-server, given our schema by a modeline, agrees with `check`.

It is started over stdio from tests/schema/yaml-ls/ (installed by `setup.sh` there), opens
fixtures whose first line is `# yaml-language-server: $schema=...`, and must flag the
structural errors at the lines where `holodeck-lsp check` reports them.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from lsprotocol import types
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import make_test_lsp_client

from holodeck_lsp.check.checker import CheckOptions, check_paths
from holodeck_lsp.validation.diagnostics import Severity
from holodeck_lsp.validation.validate import ValidationContext

HERE = Path(__file__).parent
FIXTURES = HERE / "fixtures"
SERVER = HERE / "yaml-ls" / "node_modules" / "yaml-language-server" / "bin" / "yaml-language-server"
NODE = shutil.which("node")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not (SERVER.is_file() and NODE) and not os.environ.get("CI"),
        reason="yaml-language-server is not installed: run tests/schema/yaml-ls/setup.sh "
        "(needs node)",
    ),
]
# The editor settings the YAML extension sends; no schema catalog download (no network).
TIMEOUT = 60.0  # seconds: a server that never answers fails the test instead of hanging it
SETTINGS = {"validate": True, "hover": True, "completion": True, "schemaStore": {"enable": False}}


def _client() -> LanguageClient:
    client = make_test_lsp_client()  # keeps diagnostics, answers workspace/configuration

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def _register(params: types.RegistrationParams) -> None:
        """Dynamic registrations are accepted and need nothing from this client."""

    @client.feature(types.TELEMETRY_EVENT)
    def _telemetry(params: Any) -> None:
        """The server's telemetry is not looked at."""

    return client


@pytest_asyncio.fixture
async def yaml_ls() -> AsyncIterator[LanguageClient]:
    assert SERVER.is_file() and NODE, "CI must install it: tests/schema/yaml-ls/setup.sh"
    config = ClientServerConfig(
        server_command=[NODE, str(SERVER), "--stdio"], client_factory=_client
    )
    client = await config.start()
    assert isinstance(client, LanguageClient)
    client.set_configuration(SETTINGS, section="yaml")
    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=from_fs_path(str(FIXTURES)),
        )
    )
    yield client
    await client.shutdown_session()
    await client.stop()


def _open(client: LanguageClient, path: Path, text: str | None = None) -> str:
    uri = from_fs_path(str(path))
    assert uri is not None
    body = path.read_text(encoding="utf-8") if text is None else text
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "yaml", 1, body))
    )
    return uri


async def _diagnostics(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    """The first non-empty diagnostics published for ``uri`` (the schema loads first)."""

    async def published() -> list[types.Diagnostic]:
        while not client.diagnostics.get(uri):
            await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        return list(client.diagnostics[uri])

    return await asyncio.wait_for(published(), TIMEOUT)


def _check_error_lines(path: Path) -> list[int]:
    result = check_paths([path], CheckOptions(ValidationContext(user_config_dir=None)))
    (file,) = result.files
    return sorted(d.range.start.line + 1 for d in file.diagnostics if d.severity == Severity.ERROR)


@pytest.mark.parametrize("name", ["modeline.agent.yaml", "modeline.cases.yaml"])
async def test_yaml_language_server_flags_the_lines_check_flags(
    yaml_ls: LanguageClient, name: str
) -> None:
    path = FIXTURES / name
    found = await _diagnostics(yaml_ls, _open(yaml_ls, path))
    lines = sorted(d.range.start.line + 1 for d in found)
    assert {d.severity for d in found} == {types.DiagnosticSeverity.Error}
    assert lines == _check_error_lines(path)


async def test_modeline_fixture_messages_are_precise(yaml_ls: LanguageClient) -> None:
    found = await _diagnostics(yaml_ls, _open(yaml_ls, FIXTURES / "modeline.cases.yaml"))
    assert sorted((d.range.start.line + 1, d.message) for d in found) == [
        (9, "Property flags is not allowed."),
        (11, "'input' cannot stand beside 'turns'; move it onto a turn"),
        (
            15,
            'Value is not accepted. Valid values: "image", "pdf", "text", "excel", "word", '
            '"powerpoint", "csv".',
        ),
    ]


NEW_SUITE = "\n".join(
    [
        "# yaml-language-server: $schema=../../../schema/holodeck-test-cases.schema.json",
        "- name: refund",
        "  turns:",
        "    - input: I want a refund",
        "      expected_tools:",
        "        - name: lookup",
        "          args:",
        "            order: ",
        "    - ",
        "- input: hi",
        "  evaluations:",
        "    - metric: ",
        "",
    ]
)


async def _labels(client: LanguageClient, uri: str, line: int, column: int) -> list[str]:
    params = types.CompletionParams(types.TextDocumentIdentifier(uri), types.Position(line, column))
    result = await asyncio.wait_for(client.text_document_completion_async(params), TIMEOUT)
    items = result.items if isinstance(result, types.CompletionList) else result or []
    return [item.label for item in items]


async def test_completion_offers_snippets_and_values(yaml_ls: LanguageClient) -> None:
    uri = _open(yaml_ls, FIXTURES / "new.cases.yaml", NEW_SUITE)
    assert (await _labels(yaml_ls, uri, 8, 6))[0] == "New turn"
    assert await _labels(yaml_ls, uri, 7, 19) == ["fuzzy matcher", "regex matcher"]
    assert "New expected tool with args" in await _labels(yaml_ls, uri, 5, 10)
    assert await _labels(yaml_ls, uri, 11, 14) == [
        "groundedness", "relevance", "coherence", "fluency", "bleu", "rouge", "meteor",
        "equality", "numeric",
    ]  # fmt: skip
    hover = await yaml_ls.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(3, 8))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "The user message sent on this turn." in hover.contents.value
