"""Settings: initializationOptions, workspace/configuration, invalid values, import policy."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from tests.server.lsp_client import (
    THREAD_WORKER_SERVER,
    diag,
    open_doc,
    pull_capabilities,
    pull_report,
    push_capabilities,
    start,
    stop,
)
from tests.server.shared_servers import SHARES_SERVERS, LendPush

pytestmark = SHARES_SERVERS

W = types.DiagnosticSeverity.Warning
TEXT = """name: bot
model:
  provider: opnai
  name: gpt-4o
instructions:
  inline: Be brief.
test_cases:
  - input: 2 + 2?
    ground_truth: 4
"""
QUOTE = diag(
    (8, 18),
    (8, 19),
    "HL103",
    "expected text, got the number 4 (unquoted in YAML); "
    'quote it: "4" (test_cases[0].ground_truth)',
    data={"fix": {"quote": "4"}},
)


async def test_initialization_options_override_severities(workspace: Path) -> None:
    client = await start(
        workspace, push_capabilities(), options={"severity": {"HL104": "off", "HL103": "warning"}},
        command=THREAD_WORKER_SERVER,
    )
    try:
        doc = open_doc(client, workspace / "bot.agent.yaml", TEXT)
        assert await client.diagnostics_of(doc) == [
            diag((8, 18), (8, 19), "HL103", QUOTE.message, W, data=QUOTE.data)
        ]
    finally:
        await stop(client)


async def test_invalid_options_fall_back_to_defaults_with_a_logged_message(workspace: Path) -> None:
    client = await start(
        workspace,
        push_capabilities(),
        options={
            "severity": {"HL999": "error", "HL104": "loud"},
            "graders": {"import": "always"},
            "files": {"include": "agent.yaml"},
            "colour": True,
        },
        command=THREAD_WORKER_SERVER,
    )
    try:
        doc = open_doc(client, workspace / "bot.agent.yaml", TEXT)
        assert [d.code for d in await client.diagnostics_of(doc)] == ["HL104", "HL103"]
        prefix = "holodeck settings (initializationOptions): "
        assert [m.message for m in client.log_messages if m.message.startswith(prefix)] == [
            prefix + m + "; using the default"
            for m in (
                "files.include must be a list of glob patterns, got 'agent.yaml'",
                "graders.import must be 'never' or 'trusted', got 'always'",
                "severity: unknown rule code 'HL999' ignored",
                "severity: HL104 must be one of error, hint, information, off, warning, got 'loud'",
            )
        ]
    finally:
        await stop(client)


async def test_workspace_configuration_is_read_and_followed(workspace: Path) -> None:
    client = await start(
        workspace, pull_capabilities(), configuration={"severity": {"HL104": "hint"}},
        command=THREAD_WORKER_SERVER,
    )
    try:
        doc = open_doc(client, workspace / "bot.agent.yaml", TEXT)
        await client.until(lambda: client.diagnostic_refresh_count == 1)  # settings read
        report = await pull_report(client, doc)
        assert [(d.code, d.severity) for d in report.items] == [
            ("HL104", types.DiagnosticSeverity.Hint),
            ("HL103", types.DiagnosticSeverity.Error),
        ]
        client.set_configuration({"severity": {"HL103": "off"}}, section="holodeck")
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
        await client.until(lambda: client.diagnostic_refresh_count == 2)
        report = await pull_report(client, doc)
        assert list(report.items) == [
            diag(
                (2, 12),
                (2, 17),
                "HL104",
                "unknown value 'opnai'; expected one of openai, "
                "azure_openai, anthropic, ollama; did you mean 'openai'? (model.provider)",
                data={"fix": {"replace_value": "openai"}},
            )
        ]
    finally:
        await stop(client)


async def test_file_patterns_decide_which_files_are_validated(workspace: Path) -> None:
    client = await start(
        workspace, push_capabilities(), options={"files": {"include": ["**/*.hd.yaml"]}},
        command=THREAD_WORKER_SERVER,
    )
    try:
        doc = open_doc(client, workspace / "notes.hd.yaml", "key: [unclosed\n")
        assert [d.code for d in await client.diagnostics_of(doc)] == ["HL001"]
    finally:
        await stop(client)


async def test_graders_are_imported_only_when_allowed_and_trusted(
    workspace: Path, lend_push: LendPush
) -> None:
    (workspace / "boom.py").write_text(
        'raise RuntimeError("boom")\n\n\ndef grade(ctx):\n    return True\n'
    )
    text = (workspace / "agent.yaml").read_text().replace("graders:exact_match", "boom:grade")
    for settings, expected in [
        ({"graders": {"import": "trusted"}, "workspaceTrusted": False}, []),
        ({"graders": {"import": "never"}, "workspaceTrusted": True}, []),
        ({"graders": {"import": "trusted"}, "workspaceTrusted": True}, ["HL505"]),
    ]:
        async with lend_push(workspace, settings) as client:
            doc = open_doc(client, workspace / "agent.yaml", text)
            found = await client.diagnostics_of(doc, after=len(client.published))
            assert [d.code for d in found] == expected, settings
