"""The files the editor's run settings name stay in the workspace (issue 29, item 5):
`run.replay` (VS Code: `holodeck.run.replay`, or the Testing view's `recording`) and
`run.baseline` may be set by a cloned repository's `.vscode/settings.json`. A run started
from the editor reads the recording (`--replay`) and the baseline (`--baseline`) and
writes the recording (`--record`), so each must lie in the suite's workspace folder, links
resolved: one outside it, named or reached through a link the repository ships (the
default `replay.jsonl` too), is refused with RequestFailed and a message naming the
setting, and nothing runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from tests.server.lsp_client import Client, open_doc, uri
from tests.server.shared_servers import SHARES_SERVERS, LendPush
from tests.server.test_test_items import example, request

pytestmark = SHARES_SERVERS
TRUSTED = {"workspaceTrusted": True}
RUN_ARGUMENTS = "holodeck/runArguments"


def refusal(what: str, setting: str, named: Path, workspace: Path) -> str:
    return (f"{what} refused: {setting} names {named}, outside the workspace folder "
            f"{workspace} (links resolved), so it is not used: name a file inside that folder "
            "(copy it there)")


async def refused(client: Client, params: dict[str, Any]) -> str:
    with pytest.raises(JsonRpcException) as error:
        await request(client, RUN_ARGUMENTS, params)
    assert error.value.code == -32803  # RequestFailed
    return str(error.value.message)


async def test_run_files_outside_the_workspace_are_refused_links_resolved(
    tmp_path: Path, lend_push: LendPush
) -> None:
    agent = example(tmp_path / "ws")
    workspace = agent.parent
    elsewhere = tmp_path / "home"
    elsewhere.mkdir()
    secret = elsewhere / ".bashrc"
    secret.write_text("export TOKEN=s3cret\n")
    (workspace / "ci").mkdir()
    (workspace / "ci" / "home").symlink_to(elsewhere)  # a link the repository ships
    async with lend_push(workspace, TRUSTED) as client:
        doc = {"textDocument": {"uri": uri(agent)}}
        for params, setting, named in [
            ({"mode": "live", "baseline": str(secret)}, "run.baseline", secret),
            ({"mode": "live", "baseline": "../../home/.bashrc"}, "run.baseline",
             workspace / "../../home/.bashrc"),
            ({"mode": "live", "baseline": "ci/home/.bashrc"}, "run.baseline",
             workspace / "ci/home/.bashrc"),
            ({"mode": "record", "recording": str(secret)}, "run.replay", secret),
            # Not there yet: "Record" would create it through the link.
            ({"mode": "record", "recording": "ci/home/new.jsonl"}, "run.replay",
             workspace / "ci/home/new.jsonl"),
        ]:
            assert await refused(client, {**doc, **params}) == refusal(
                RUN_ARGUMENTS, setting, named, workspace)
        # Inside the workspace, through a link or not, the files are used.
        (workspace / "ci" / "main.json").write_text("{}")
        (workspace / "main.json").symlink_to(workspace / "ci" / "main.json")
        inside = await request(client, RUN_ARGUMENTS, {**doc, "mode": "record",
                                                      "recording": "ci/r.jsonl",
                                                      "baseline": "main.json"})
        assert inside["args"][-4:] == ["--record", str(workspace / "ci" / "r.jsonl"),
                                       "--baseline", str(workspace / "ci" / "main.json")]
        # The default recording, `replay.jsonl` beside the suite, shipped as a link out.
        (workspace / "replay.jsonl").unlink(missing_ok=True)
        (workspace / "replay.jsonl").symlink_to(secret)
        assert await refused(client, {**doc, "mode": "replay"}) == refusal(
            RUN_ARGUMENTS, "run.replay", workspace / "replay.jsonl", workspace)


async def test_a_lens_run_with_a_setting_outside_the_workspace_is_refused(
    tmp_path: Path, lend_push: LendPush
) -> None:
    agent = example(tmp_path / "ws")
    workspace = agent.parent
    outside = tmp_path / "main.json"
    outside.write_text("{}")
    settings = {**TRUSTED, "run": {"baseline": str(outside)}}
    async with lend_push(workspace, settings) as client:
        shown = len(client.messages)  # the session's server: what earlier tests were shown
        doc = open_doc(client, agent)
        expected = refusal("holodeck.runCase", "run.baseline", outside, workspace)
        with pytest.raises(JsonRpcException) as error:
            await client.workspace_execute_command_async(
                types.ExecuteCommandParams("holodeck.runCase", [doc, 0]))
        assert (error.value.code, error.value.message) == (-32803, expected)
        assert [(m.type, m.message) for m in client.messages[shown:]] == [
            (types.MessageType.Warning, expected)]
