"""Pulled diagnostics: a client that asks (textDocument/diagnostic) is never pushed to."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from tests.server.lsp_client import Client, diag, edit, open_doc, pull_report, uri
from tests.server.shared_servers import SHARES_SERVERS

pytestmark = SHARES_SERVERS

W = types.DiagnosticSeverity.Warning


async def test_a_pull_reports_the_document_and_the_files_it_reads(
    pull: Client, workspace: Path
) -> None:
    cases = workspace / "cases.yaml"
    cases.write_text(cases.read_text().replace("Hello", "'  '"))
    agent = open_doc(pull, workspace / "agent.yaml")
    report = await pull_report(pull, agent)
    assert report == types.RelatedFullDocumentDiagnosticReport(
        items=(),
        result_id=report.result_id,
        related_documents={
            uri(cases): types.FullDocumentDiagnosticReport(
                items=(
                    diag(
                        (14, 11),
                        (14, 15),
                        "HL204",
                        "input must not be empty or whitespace "
                        '(test case "greeting": test_cases[1].input)',
                    ),
                ),
                result_id=report.related_documents[uri(cases)].result_id,
            )
        },
    )
    assert pull.published == []


async def test_an_unchanged_document_gets_an_unchanged_report(
    pull: Client, workspace: Path
) -> None:
    agent = open_doc(pull, workspace / "suite.agent.yaml")
    first = await pull_report(pull, agent)
    assert first.items == ()
    again = await pull_report(pull, agent, previous=first.result_id)
    assert again == types.RelatedUnchangedDocumentDiagnosticReport(result_id=first.result_id)


async def test_a_pull_after_an_edit_sees_the_edit(pull: Client, workspace: Path) -> None:
    agent = open_doc(pull, workspace / "suite.agent.yaml")
    first = await pull_report(pull, agent)
    edit(pull, agent, 2, (11, 15), (11, 28), "''")
    report = await pull_report(pull, agent, previous=first.result_id)
    assert report.items == (
        diag(
            (11, 15),
            (11, 17),
            "HL204",
            "input must not be empty or whitespace "
            '(test case "weather": test_cases[0].turns[1].input)',
        ),
    )
    assert report.result_id != first.result_id
    assert pull.published == []


async def test_editing_a_read_file_asks_the_client_to_pull_again(
    pull: Client, workspace: Path
) -> None:
    refreshes = pull.diagnostic_refresh_count  # the module's server: counted from here
    agent = open_doc(pull, workspace / "agent.yaml")
    await pull_report(pull, agent)
    cases = open_doc(pull, workspace / "cases.yaml")
    assert (await pull_report(pull, cases)).items == ()
    edit(pull, cases, 2, (5, 18), (5, 30), "search")
    report = await pull_report(pull, cases)
    assert report.items == (
        diag(
            (5, 18),
            (5, 24),
            "HL307",
            "no tool of this agent has a name containing 'search' "
            '(tools: lookup_order) (test case "refund": '
            "test_cases[0].turns[0].expected_tools[0].name)",
            W,
        ),
    )
    await pull.until(lambda: pull.diagnostic_refresh_count > refreshes)
    assert pull.published == []


async def test_the_server_registers_file_watchers_with_a_dynamic_client(pull: Client) -> None:
    found = await pull.until(lambda: pull.registrations)
    assert [(r.method, r.register_options) for r in found] == [
        (
            types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            {"watchers": [{"globPattern": "**/*.{yaml,yml,py}"}]},
        ),
        (types.WORKSPACE_DID_CHANGE_CONFIGURATION, {"section": "holodeck"}),
    ]
