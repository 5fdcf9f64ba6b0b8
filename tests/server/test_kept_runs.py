"""The runs kept beside an agent, in the editor: hovering a turn (or a single-turn case)
tells its record over the last runs ("passed 2 of the last 4 run(s); flaky; failing
since ..."), and the Testing view's items carry it (`history`), from the index or the
files, never writing into the workspace."""

from __future__ import annotations

import asyncio
import shutil
import time
from pathlib import Path
from typing import Any

from lsprotocol import types

from tests.history.conftest import VENDORED_HISTORY
from tests.server.lsp_client import Client, open_doc
from tests.server.shared_servers import SHARES_SERVERS, LendPush
from tests.server.test_test_items import request

pytestmark = SHARES_SERVERS

SINCE = "2026-12-07 03:04:35"  # the fourth run, where both turns below fail


async def hover_text(client: Client, doc: str, line: int, wanted: str) -> str:
    """The hover at ``line`` once it holds ``wanted`` (the first may come before the runs
    are read), or as it is after ten seconds."""
    deadline = time.monotonic() + 10
    while True:
        hover = await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(doc), types.Position(line, 8))
        )
        text = hover.contents.value if hover is not None else ""  # type: ignore[union-attr]
        if wanted in text or time.monotonic() > deadline:
            return text
        await asyncio.sleep(0.05)


async def test_hover_and_test_items_tell_each_turn_s_record(
    tmp_path: Path, lend_push: LendPush
) -> None:
    shutil.copytree(VENDORED_HISTORY, tmp_path / "suite")
    shutil.copytree(VENDORED_HISTORY, tmp_path / "bare", ignore=shutil.ignore_patterns("results"))
    agent, bare = tmp_path / "suite" / "agent.yaml", tmp_path / "bare" / "agent.yaml"
    lines = agent.read_text().splitlines()
    turn_1 = lines.index("      - input: And in 2020?")
    capital = lines.index("  - name: capital")
    async with lend_push(tmp_path) as client:
        doc, other = open_doc(client, agent), open_doc(client, bare)
        await client.diagnostics_of(doc)
        wanted = (
            f"**History (turn 1):** passed 2 of the last 4 run(s); flaky; failing since `{SINCE}`"
        )
        assert wanted in await hover_text(client, doc, turn_1 + 1, wanted)
        wanted = f"**History:** passed 3 of the last 4 run(s); flaky; failing since `{SINCE}`"
        text = await hover_text(client, doc, capital + 1, wanted)
        assert text.endswith(wanted)
        assert "---" in text  # below the field's own documentation
        found: dict[str, Any] = await request(client, "holodeck/testItems",
                                              {"textDocument": {"uri": doc}})  # fmt: skip
        cash, single = found["cases"]
        assert [turn.get("history") for turn in cash["turns"]] == [
            {"runs": 4, "passed": 4, "flaky": False, "failingSince": None,
             "text": "passed 4 of the last 4 run(s)"},
            {"runs": 4, "passed": 2, "flaky": True, "failingSince": SINCE,
             "text": f"passed 2 of the last 4 run(s); flaky; failing since {SINCE}"},
        ]  # fmt: skip
        assert single["history"]["flaky"] is True and single["turns"] == []
        # An agent that keeps no runs: hover and items as before (its empty folder is told
        # at once: no waiting for it).
        await client.diagnostics_of(other)
        text = await hover_text(client, other, capital + 1, "")
        assert "History" not in text and text  # the field's documentation alone
        found = await request(client, "holodeck/testItems", {"textDocument": {"uri": other}})
        assert all("history" not in case for case in found["cases"])
    assert not (agent.parent / ".holodeck").exists()  # the server wrote nothing
