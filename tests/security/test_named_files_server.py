"""The language server and a file a YAML file names (issue 19, item 4): the test
explorer's `holodeck/testItems` on an agent whose `test_cases_file` is a FIFO answers,
and so does the next request; nothing is read on the event loop."""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path
from typing import Any

from tests.server.lsp_client import Client, uri
from tests.server.shared_servers import SHARES_SERVERS, LendPush
from tests.server.test_test_items import request

pytestmark = SHARES_SERVERS

AGENT = "name: a\nmodel:\n  provider: openai\n  name: gpt-4o\ninstructions:\n  inline: hi\n"
ANSWER_WITHIN = 30.0  # seconds; only a stalled server takes this long


async def items_of(client: Client, path: Path) -> Any:
    answer = request(client, "holodeck/testItems", {"textDocument": {"uri": uri(path)}})
    return await asyncio.wait_for(answer, ANSWER_WITHIN)


def release(fifo: Path) -> None:
    """End the wait of a reader stuck opening the FIFO (the server before the fix)."""
    with contextlib.suppress(OSError):  # ENXIO: nobody is waiting on it
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))


async def test_items_of_a_suite_naming_a_fifo_and_the_next_request_are_answered(
    tmp_path: Path, lend_push: LendPush
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    fifo = workspace / "cases.yaml"
    os.mkfifo(fifo)
    agent = workspace / "agent.yaml"
    agent.write_text(AGENT + "test_cases_file: cases.yaml\n", encoding="utf-8")
    other = workspace / "other.agent.yaml"
    other.write_text(AGENT + "test_cases:\n  - name: greets\n    input: hi\n", encoding="utf-8")
    async with lend_push(workspace) as client:
        try:
            recording = str(workspace / "replay.jsonl")  # named, never opened
            assert await items_of(client, agent) == {
                "uri": uri(agent),
                "recording": recording,
                "cases": [],
            }
            found = await items_of(client, other)
            assert [case["label"] for case in found["cases"]] == ["greets"]
        finally:
            release(fifo)  # a stalled server (the session's) goes on
