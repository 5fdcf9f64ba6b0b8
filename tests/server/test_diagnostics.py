"""Diagnostics through the protocol: open, change, save, close, referenced files, encodings."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from tests.server.lsp_client import (
    Client,
    diag,
    edit,
    open_doc,
    push_capabilities,
    replace_all,
    start,
    stop,
    uri,
)
from tests.server.shared_servers import SHARES_SERVERS

pytestmark = SHARES_SERVERS

W = types.DiagnosticSeverity.Warning
BROKEN = """name: bot
model:
  provider: opnai
  name: gpt-4o
instructions:
  inline: Be brief.
test_cases:
  - name: sum
    input: 2 + 2?
    ground_truth: 4
"""


async def test_open_reports_the_agent_and_its_test_cases_file(
    push: Client, workspace: Path
) -> None:
    cases = workspace / "cases.yaml"
    cases.write_text(
        cases.read_text().replace("            args:", "            count: 0\n            args:")
    )
    agent = open_doc(push, workspace / "agent.yaml")
    assert await push.diagnostics_of(agent) == []
    assert await push.diagnostics_of(uri(cases)) == [
        diag(
            (6, 19),
            (6, 20),
            "HL303",
            "count must be an integer >= 1, got 0 (test case "
            '"refund": test_cases[0].turns[0].expected_tools[0].count)',
        ),
    ]


async def test_each_change_is_validated_and_never_published_out_of_order(
    push: Client, workspace: Path
) -> None:
    agent = open_doc(push, workspace / "bot.agent.yaml", BROKEN)
    assert await push.diagnostics_of(agent) == [
        diag(
            (2, 12),
            (2, 17),
            "HL104",
            "unknown value 'opnai'; expected one of openai, "
            "azure_openai, anthropic, ollama; did you mean 'openai'? (model.provider)",
            data={"fix": {"replace_value": "openai"}},
        ),
        diag(
            (9, 18),
            (9, 19),
            "HL103",
            "expected text, got the number 4 (unquoted in YAML); "
            'quote it: "4" (test case "sum": test_cases[0].ground_truth)',
            data={"fix": {"quote": "4"}},
        ),
    ]
    # A burst of edits (typing, undoing, fixing), awaited only at the end.
    edit(push, agent, 2, (2, 17), (2, 17), "x")
    edit(push, agent, 3, (2, 17), (2, 18), "")
    edit(push, agent, 4, (2, 14), (2, 14), "e")
    edit(push, agent, 5, (9, 18), (9, 19), '"4"')
    assert await push.diagnostics_of(agent, version=5) == []
    versions = [p.version or 0 for p in push.published if p.uri == agent]
    assert versions == sorted(versions)


async def test_save_revalidates_and_close_clears(push: Client, workspace: Path) -> None:
    path = workspace / "bot.agent.yaml"
    agent = open_doc(push, path, BROKEN)
    first = await push.diagnostics_of(agent)
    assert [d.code for d in first] == ["HL104", "HL103"]
    seen = len(push.published)
    push.text_document_did_save(
        types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(agent))
    )
    assert await push.diagnostics_of(agent, after=seen) == first
    seen = len(push.published)
    push.text_document_did_close(
        types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(agent))
    )
    assert await push.diagnostics_of(agent, after=seen) == []


async def test_editing_an_open_test_cases_file_revalidates_its_agent(
    push: Client, workspace: Path
) -> None:
    agent = open_doc(push, workspace / "agent.yaml")
    cases_path = workspace / "cases.yaml"
    assert await push.diagnostics_of(uri(cases_path)) == []
    cases = open_doc(push, cases_path)
    seen = len(push.published)
    # `name: lookup_order` -> `name: lookup`: still a substring of the agent's tool;
    # then `name: search`: no tool of the agent (known only through the agent) matches.
    edit(push, cases, 2, (5, 18), (5, 30), "search")
    assert await push.diagnostics_of(cases, after=seen) == [
        diag(
            (5, 18),
            (5, 24),
            "HL307",
            "no tool of this agent has a name containing 'search' "
            '(tools: lookup_order) (test case "refund": '
            "test_cases[0].turns[0].expected_tools[0].name)",
            W,
        ),
    ]
    assert agent in {p.uri for p in push.published[seen:]}


async def test_a_referenced_file_changed_on_disk_revalidates_the_agent(
    push: Client, workspace: Path
) -> None:
    agent = open_doc(push, workspace / "agent.yaml")
    assert await push.diagnostics_of(agent) == []
    graders = workspace / "graders.py"
    graders.write_text(graders.read_text().replace("def exact_match", "def exact"))
    seen = len(push.published)
    push.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            [types.FileEvent(uri(graders), types.FileChangeType.Changed)]
        )
    )
    assert await push.diagnostics_of(agent, after=seen) == [
        diag(
            (16, 14),
            (16, 33),
            "HL503",
            "module 'graders' (graders.py) defines no 'exact_match' "
            "(evaluations.metrics[0].grader)",
        ),
    ]


async def test_a_deleted_test_cases_file_is_cleared_and_reported(
    push: Client, workspace: Path
) -> None:
    cases = workspace / "cases.yaml"
    cases.write_text(cases.read_text().replace("Hello", "''"))
    agent = open_doc(push, workspace / "agent.yaml")
    assert await push.diagnostics_of(agent) == []
    assert [d.code for d in await push.diagnostics_of(uri(cases))] == ["HL204"]
    seen = len(push.published)
    cases.unlink()
    push.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            [types.FileEvent(uri(cases), types.FileChangeType.Deleted)]
        )
    )
    assert await push.diagnostics_of(uri(cases), after=seen) == []
    assert await push.diagnostics_of(agent, after=seen) == [
        diag(
            (17, 17),
            (17, 27),
            "HL601",
            f"test_cases_file 'cases.yaml' not found (looked for {cases}) (test_cases_file)",
        ),
    ]


async def test_yaml_files_that_are_not_holodeck_files_get_no_diagnostics(
    push: Client, workspace: Path
) -> None:
    compose = open_doc(push, workspace / "compose.yaml", "services:\n  web:\n    image: x\n")
    agent = open_doc(push, workspace / "bot.agent.yaml", BROKEN)
    await push.diagnostics_of(agent)  # one worker, in order: the compose file was judged first
    assert compose not in {p.uri for p in push.published}


async def test_positions_are_utf16_by_default(push: Client, workspace: Path) -> None:
    text = BROKEN.replace("Be brief.", "Be brief 😀.").replace("name: sum", "name: 😀 sum")
    text = text.replace("ground_truth: 4", "ground_truth: 😀\n    files: 3")
    agent = open_doc(push, workspace / "bot.agent.yaml", text)
    found = await push.diagnostics_of(agent)
    assert [(d.code, d.range) for d in found] == [
        ("HL104", types.Range(types.Position(2, 12), types.Position(2, 17))),
        ("HL103", types.Range(types.Position(10, 11), types.Position(10, 12))),
    ]


async def test_positions_follow_a_negotiated_utf8_encoding(workspace: Path) -> None:
    caps = push_capabilities()
    caps.general = types.GeneralClientCapabilities(
        position_encodings=[types.PositionEncodingKind.Utf8]
    )
    client = await start(workspace, caps)
    try:
        text = BROKEN.replace("provider: opnai", "provider: opnai  # é").replace(
            "ground_truth: 4", "ground_truth: é4é\n    retrieval_context: é"
        )
        agent = open_doc(client, workspace / "bot.agent.yaml", text)
        found = await client.diagnostics_of(agent)
        assert [(d.code, d.range) for d in found] == [
            ("HL104", types.Range(types.Position(2, 12), types.Position(2, 17))),
            ("HL103", types.Range(types.Position(10, 23), types.Position(10, 25))),
        ]
    finally:
        await stop(client)


async def test_whole_document_changes_are_accepted(push: Client, workspace: Path) -> None:
    agent = open_doc(push, workspace / "bot.agent.yaml", BROKEN)
    await push.diagnostics_of(agent)
    seen = len(push.published)
    replace_all(push, agent, BROKEN.replace("opnai", "openai").replace(": 4", ': "4"'), 2)
    assert await push.diagnostics_of(agent, after=seen) == []
