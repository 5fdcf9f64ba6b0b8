"""No workspace code runs without consent. The server an editor starts in a cloned
repository (its working directory) imports none of the repository's modules named like the
standard library's or the server's own libraries, trusted or not; untrusted, it offers no
runs and refuses every command that would import the repository's graders and tools;
trusted, a run imports the user's grader and tool and nothing else of the repository.
Completion reads a function tool's parameters from its source, and imports nothing.
`check --import-graders` there imports the grader alone."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from tests.runner.fake_model import FakeModelServer, Reply, Turns
from tests.security.hostile import (
    CONSOLE_SCRIPT,
    QUESTION,
    descendants,
    descriptor,
    hostile_workspace,
    imported,
)
from tests.server.lsp_client import (
    Client,
    open_doc,
    pull_capabilities,
    pull_report,
    start,
    stop,
)

UNTRUSTED = {"workspaceTrusted": False, "graders": {"import": "trusted"}}
TRUSTED = {**UNTRUSTED, "workspaceTrusted": True}


def refusal(command: str) -> str:
    return (
        f"{command} refused: this workspace is not trusted, and running its test cases (or "
        "showing a report of them) imports its graders and tools. Trust the workspace first "
        "(VS Code: Manage Workspace Trust; other editors: the setting workspaceTrusted)."
    )


async def lenses(client: Client, doc: str) -> list[tuple[int, str, list[Any]]]:
    found = await client.text_document_code_lens_async(
        types.CodeLensParams(types.TextDocumentIdentifier(doc))
    )
    return [
        (lens.range.start.line, lens.command.title, list(lens.command.arguments or []))
        for lens in found or []
        if lens.command
    ]


async def test_a_cloned_repository_runs_no_code_until_trusted_then_only_its_grader_and_tool(
    tmp_path: Path,
) -> None:
    script = Turns(
        {QUESTION: [Reply(tool_calls=[("lookup", {"item": "cash", "year": "2009"})]),
                    Reply("206588")]}
    )  # fmt: skip
    with FakeModelServer(script) as model:
        agent, markers = hostile_workspace(tmp_path, model.url)
        client = await start(
            agent.parent, pull_capabilities(), options=UNTRUSTED, configuration=UNTRUSTED,
            command=[CONSOLE_SCRIPT, "serve"], cwd=agent.parent,
        )  # fmt: skip
        try:
            doc = open_doc(client, agent)
            # Untrusted: validated (no grader import), no lenses, every run refused.
            assert list((await pull_report(client, doc)).items) == []
            assert await lenses(client, doc) == []
            commands = [
                ("holodeck.runCase", [doc, 0]),
                ("holodeck.runTurn", [doc, 0, 0]),
                ("holodeck.showReport", [doc, "report.json"]),
            ]
            for command, arguments in commands:
                with pytest.raises(JsonRpcException) as refused:
                    await client.workspace_execute_command_async(
                        types.ExecuteCommandParams(command, arguments)
                    )
                assert (refused.value.code, refused.value.message) == (-32803, refusal(command))
            assert [(m.type, m.message) for m in client.messages] == [
                (types.MessageType.Warning, refusal(command)) for command, _ in commands
            ]
            # Completing an expected tool's arguments reads tools.py, and imports nothing.
            text = agent.read_text().replace(
                "        expected_tools: [lookup]\n",
                "        expected_tools:\n          - name: lookup\n            args:\n"
                + " " * 14 + "\n",  # the cursor at the end of this line
            )
            probe = open_doc(client, agent.parent / "probe.agent.yaml", text)
            where = types.Position(text.splitlines().index("            args:") + 1, 14)
            found = await client.text_document_completion_async(
                types.CompletionParams(types.TextDocumentIdentifier(probe), where)
            )
            assert isinstance(found, types.CompletionList)
            assert [i.label for i in found.items] == ["item", "year"]
            assert imported(markers) == []
            # Its children (the validation worker, multiprocessing's forkserver and resource
            # tracker) never hold the client's pipes: stdin /dev/null, stdout the log.
            server = client._server
            assert server is not None
            log = descriptor(server.pid, 2)
            children = descendants(server.pid)
            assert len(children) >= 3
            assert {(descriptor(c, 0), descriptor(c, 1)) for c in children} == {("/dev/null", log)}

            # Trust granted: the client is asked to fetch the lenses again, and gets them.
            client.set_configuration(TRUSTED, section="holodeck")
            client.workspace_did_change_configuration(
                types.DidChangeConfigurationParams(settings=None)
            )
            await client.until(lambda: client.code_lens_refresh_count == 1)
            lines = agent.read_text().splitlines()
            assert await lenses(client, doc) == [
                (lines.index("  - name: cash"), "▶ Run case", [doc, 0]),
                (lines.index(f"      - input: {QUESTION}"), "▶ Run turn", [doc, 0, 0]),
            ]
            answer = await client.workspace_execute_command_async(
                types.ExecuteCommandParams("holodeck.runCase", [doc, 0])
            )
            assert answer == {"exitCode": 0, "passed": 1, "failed": 0}
            assert imported(markers) == ["graders", "tools"]
        finally:
            await stop(client)


def test_check_import_graders_imports_only_the_grader(tmp_path: Path) -> None:
    agent, markers = hostile_workspace(tmp_path)
    done = subprocess.run(
        [CONSOLE_SCRIPT, "check", "--import-graders", agent.name],
        cwd=agent.parent, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60,
    )  # fmt: skip
    assert (done.returncode, done.stdout, done.stderr) == (
        0, "1 file(s) checked: 0 error(s), 0 warning(s)\n", ""
    )  # fmt: skip
    assert imported(markers) == ["graders"]
