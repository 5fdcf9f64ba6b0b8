"""Start-up: the document an editor opens with the workspace gets the diagnostics a warm
server gives it, and `HOLODECK_LSP_TIMING` shows where start-up's milliseconds go."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from tests.server.wire import Message, Wire

TEXT = """name: start
model:
  provider: openai
  name: gpt-4o
  name: gpt-4o-mini
instructions:
  inline: Be brief.
test_cases:
  - input: hi
    flavour: sweet
"""
CAPABILITIES = {"textDocument": {"publishDiagnostics": {
    "relatedInformation": True, "versionSupport": True}}}


def _published(wire: Wire, uri: str, version: int) -> list[Message] | None:
    for message in wire.notifications:
        params = message["params"]
        if (message["method"] == "textDocument/publishDiagnostics" and params["uri"] == uri
                and params.get("version") == version):
            found: list[Message] = params["diagnostics"]
            return found
    return None


async def _open_at_start(wire: Wire, workspace: Path) -> tuple[str, list[Message]]:
    """What an editor opening a workspace does: `initialize`, then at once `initialized`
    and the document on screen; its first diagnostics."""
    path = workspace / "start.agent.yaml"
    path.write_text(TEXT)
    answer = await wire.call("initialize", {
        "processId": None, "rootUri": workspace.as_uri(), "capabilities": CAPABILITIES})
    assert "result" in answer, answer
    wire.notify("initialized", {})
    wire.notify("textDocument/didOpen", {"textDocument": {
        "uri": path.as_uri(), "languageId": "yaml", "version": 1, "text": TEXT}})
    return path.as_uri(), await wire.until(lambda: _published(wire, path.as_uri(), 1))


def _summary(diagnostics: list[Message]) -> list[tuple[Any, ...]]:
    return [(d["range"]["start"]["line"], d["range"]["start"]["character"], d["code"],
             [r["location"]["range"]["start"]["line"] for r in d.get("relatedInformation") or []])
            for d in diagnostics]


async def test_the_first_document_gets_the_diagnostics_a_warm_server_gives(
    workspace: Path, tmp_path: Path
) -> None:
    wire = await Wire.start(tmp_path / "home")
    try:
        uri, first = await _open_at_start(wire, workspace)
        wire.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": TEXT}]})
        again = await wire.until(lambda: _published(wire, uri, 2))
    finally:
        await wire.close()
    assert first == again  # whole: ranges, messages, codes, related locations, fix data
    assert _summary(first) == [(4, 2, "HL003", [3]), (9, 4, "HL101", [])]


def _marks(log: Path) -> dict[str, float]:
    marks: dict[str, float] = {}
    for line in log.read_text().splitlines():
        if line.startswith("holodeck-lsp timing: "):
            step, _, epoch = line.removeprefix("holodeck-lsp timing: ").rpartition(" ")
            marks.setdefault(step, float(epoch))
    return marks


async def _marks_until(log: Path, step: str, timeout: float = 60.0) -> dict[str, float]:
    """The marks logged so far, once ``step`` is among them (polled, within a bound)."""
    deadline = time.monotonic() + timeout
    while step not in (marks := _marks(log)):
        assert time.monotonic() < deadline, f"no {step!r} within {timeout} s: {marks}"
        await asyncio.sleep(0.05)
    return marks


async def test_timing_marks_each_step_of_start_up_on_both_sides(
    workspace: Path, tmp_path: Path
) -> None:
    log = tmp_path / "server.stderr"
    wire = await Wire.start(tmp_path / "home", env={"HOLODECK_LSP_TIMING": "1"}, stderr=log)
    try:
        await _open_at_start(wire, workspace)
        # Then, on a thread: the code cache saved, the collector on.
        marks = await _marks_until(log, "server: settled")
    finally:
        await wire.close()
    # The worker starts first and loads the validation code while the server process loads
    # lsprotocol and pygls; pygls answers `initialize` and hands `didOpen` to the worker.
    server = ["server: started", "server: validation worker launched",
              "server: protocol side imported", "server: initialize read",
              "server: didOpen read", "server: validation submitted",
              "server: validation result received", "server: diagnostics published"]
    worker = ["server: validation submitted", "worker: validation starts",
              "worker: validated (parse, models, lints)", "server: validation result received"]
    for in_order in (server, worker):
        assert [step for step in in_order if step in marks] == in_order
        assert [marks[step] for step in in_order] == sorted(marks[step] for step in in_order)
    assert "worker: validation code loaded" in marks  # the forkserver's preload (preload.py)
