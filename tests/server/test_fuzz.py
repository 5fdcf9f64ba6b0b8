"""A hostile editor, seeded and bounded: the server never crashes, answers every request,
stays under a memory bound, and is exactly right afterwards.

Each seed sends a storm of random edits (fragments, pastes, emoji, CRLF, lone surrogates,
huge lines, whole documents replaced by an alias bomb, 500 nested `[` or 5 MB), and among
them requests at valid and invalid positions (some cancelled at once) and messages that are
not valid JSON-RPC. Nothing is awaited during the storm. Afterwards: every request has
its response, the server's memory (with its worker processes) stayed under the bound,
and the diagnostics published for the last version are those of the client's text,
in UTF-16 positions. Set HOLODECK_LSP_SEED to replay one run.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest

from holodeck_lsp.validation.diagnostics import Severity
from holodeck_lsp.validation.validate import ValidationContext, validate_text
from tests.server.test_random_edits import FRAGMENTS
from tests.server.wire import Wire
from tests.support.suites import alias_bomb

STEPS = 400
SEEDS = [int(os.environ["HOLODECK_LSP_SEED"])] if "HOLODECK_LSP_SEED" in os.environ else [7, 8]
MEMORY_BOUND_MB = 500
BOMB = alias_bomb(9)
NESTED = "model: " + "[" * 500 + "]" * 500 + "\n"
HOSTILE = [*FRAGMENTS, "\ud800", "\udfff", "\x00", "\x1b", "\u2028", "\x85", "[" * 600,
           "*l0", "&l0 [x, x]"]
_BREAK = re.compile(r"\r\n|\r|\n")
_YAML_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_SEVERITIES = {Severity.ERROR: 1, Severity.WARNING: 2, Severity.INFORMATION: 3, Severity.HINT: 4}
AGENT = """name: fuzz
model:
  provider: openai
  name: gpt-4o
instructions:
  inline: Answer briefly.
test_cases:
  - name: first
    input: What is 2 + 2?
    ground_truth: "4"
  - name: second
    turns:
      - input: Hello 😀
        expected_tools:
          - name: search
            args: {query: {regex: "^h"}}
"""
WHOLE = [BOMB, NESTED, "- " * 300 + "x\n", "\ud83d" * 50]  # swapped in now and then
HUGE = AGENT + "# " + "y" * 5_000_000  # for one step mid-storm: past the editor's limit


def units(text: str) -> int:
    """UTF-16 code units, a lone surrogate counting one (as the client counts)."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def lsp_position(text: str, offset: int) -> dict[str, int]:
    starts = [0] + [m.end() for m in _BREAK.finditer(text, 0, offset)]
    return {"line": len(starts) - 1, "character": units(text[starts[-1]:offset])}


def addressable(text: str, offset: int) -> int:
    """No client position falls between \\r and \\n."""
    if 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n":
        return offset - 1
    return offset


def expected(text: str, path: Path, home: Path) -> list[tuple[Any, ...]]:
    """What the server must publish for ``text``, computed here independently."""
    result = validate_text(text, path, ValidationContext(user_config_dir=home / ".holodeck",
                                                         search_paths=[path.parent]))
    yaml_starts = [0] + [m.end() for m in _YAML_BREAK.finditer(text)]

    def client(line: int, col: int) -> dict[str, int]:
        offset = (len(text) if line >= len(yaml_starts)
                  else min(yaml_starts[line] + col, len(text)))
        return lsp_position(text, addressable(text, offset))

    return [((client(d.range.start.line, d.range.start.character),
              client(d.range.end.line, d.range.end.character)),
             d.code, d.message, _SEVERITIES[d.severity])
            for d in result.diagnostics(str(path))]


def tree_rss_mb(pid: int) -> float:
    total, pending = 0, [pid]
    while pending:
        current = pending.pop()
        try:
            for line in Path(f"/proc/{current}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
            pending.extend(int(c) for task in Path(f"/proc/{current}/task").iterdir()
                           for c in (task / "children").read_text().split())
        except OSError:
            continue
    return total / 1024


class Storm:
    def __init__(self, wire: Wire, rng: random.Random, uri: str) -> None:
        self.wire, self.rng, self.uri = wire, rng, uri
        self.asked: list[int] = []
        self.rejected: list[str] = []  # ids of invalid requests sent under our own ids
        self.unaddressed = 0  # messages answered with an id of null

    def request(self, text: str) -> None:
        rng, doc = self.rng, {"uri": self.uri}
        offset = addressable(text, rng.randint(0, len(text)))
        roll = rng.random()
        where: Any = lsp_position(text, offset)
        if roll < 0.15:
            where = {"line": rng.choice([10**6, 0]), "character": rng.choice([10**6, 3])}
        elif roll < 0.2:
            where = {"line": -1, "character": 0}  # invalid params: -32602
        method = rng.choice(["textDocument/hover", "textDocument/completion",
                             "textDocument/documentSymbol", "textDocument/definition",
                             "textDocument/codeAction"])
        params: dict[str, Any] = {"textDocument": doc}
        if method == "textDocument/codeAction":
            params |= {"range": {"start": where, "end": where}, "context": {"diagnostics": []}}
        elif method != "textDocument/documentSymbol":
            params["position"] = where
        request_id = self.wire.request(method, params)
        self.asked.append(request_id)
        if rng.random() < 0.2:
            self.wire.notify("$/cancelRequest", {"id": request_id})

    def invalid(self) -> None:
        roll = self.rng.random()
        tag = f"bad-{len(self.rejected)}"
        if roll < 0.3:
            self.wire.send(b'{"jsonrpc": "2.0", "id": 1, "method": "textDocument/hov')
            self.unaddressed += 1
        elif roll < 0.6:
            self.wire.send({"jsonrpc": "2.0", "id": tag})
            self.rejected.append(tag)
        else:
            self.wire.send({"jsonrpc": "2.0", "id": tag, "method": "textDocument/completion",
                            "params": []})
            self.rejected.append(tag)


def edit_of(rng: random.Random, text: str) -> tuple[int, int, str]:
    start = addressable(text, rng.randint(0, len(text)))
    roll = rng.random()
    if roll < 0.02:
        return 0, len(text), rng.choice(WHOLE)  # a pathological document
    if roll < 0.45:
        return start, start, rng.choice(HOSTILE)
    if roll < 0.8:
        end = addressable(text, min(len(text), start + rng.randint(1, 40)))
        return start, max(start, end), ""
    if roll < 0.98:
        end = addressable(text, min(len(text), start + rng.randint(1, 10)))
        return start, max(start, end), rng.choice(HOSTILE)
    return start, start, "x" * rng.randint(20_000, 100_000)  # a huge line


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
async def test_a_hostile_editor_cannot_break_the_server(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    home = tmp_path / "home"
    wire = await Wire.start(home)
    await wire.initialize(tmp_path, {"textDocument": {
        "publishDiagnostics": {"versionSupport": True}}})
    path = (tmp_path / "agent.yaml").resolve()
    uri = path.as_uri()
    text, version = AGENT, 1
    wire.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": version, "text": text}})
    storm = Storm(wire, rng, uri)
    peak = 0.0
    for step in range(STEPS):
        start, end, new = edit_of(rng, text)
        if step in (STEPS // 2, STEPS // 2 + 1):
            start, end, new = 0, len(text), HUGE if step == STEPS // 2 else AGENT
        if step == STEPS - 1:
            start, end, new = 0, len(text), AGENT.replace("2 + 2", "2 + 2 \ud800")
        version += 1
        wire.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": lsp_position(text, start),
                                          "end": lsp_position(text, end)}, "text": new}]})
        text = text[:start] + new + text[end:]
        if rng.random() < 0.3:
            storm.request(text)
        if rng.random() < 0.05:
            storm.invalid()
        if step % 20 == 0:
            await asyncio.sleep(0)  # let the reader keep up; never a timed wait
            peak = max(peak, tree_rss_mb(wire.process.pid))
    await wire.process.stdin.drain()  # type: ignore[union-attr]

    def all_answered() -> bool:
        peak_now = tree_rss_mb(wire.process.pid)
        nonlocal peak
        peak = max(peak, peak_now)
        return (all(i in wire.responses for i in storm.asked)
                and all(t in wire.responses for t in storm.rejected)
                and len(wire.orphans) >= storm.unaddressed)

    await wire.until(all_answered, timeout=120)
    codes = {wire.responses[t]["error"]["code"] for t in storm.rejected}
    assert codes <= {-32600, -32602}, seed
    assert all(o["error"]["code"] == -32700 for o in wire.orphans), seed

    def published() -> list[Any] | None:
        for note in reversed(wire.notifications):
            params = note.get("params", {})
            if (note["method"] == "textDocument/publishDiagnostics"
                    and params.get("uri") == uri and params.get("version") == version):
                return list(params["diagnostics"])
        return None

    diagnostics = await wire.until(lambda: published() is not None and [published()],
                                   timeout=120)
    got = [((d["range"]["start"], d["range"]["end"]), d["code"], d["message"], d["severity"])
           for d in diagnostics[0]]
    assert got == expected(text, path, home), f"seed {seed}"
    assert [g[1] for g in got][:1] == ["HL005"], f"seed {seed}"
    hover = await wire.call("textDocument/hover", {"textDocument": {"uri": uri},
                                                   "position": {"line": 1, "character": 3}})
    assert "model" in hover["result"]["contents"]["value"], seed
    assert peak < MEMORY_BOUND_MB, f"seed {seed}: peak RSS {peak:.0f} MB"
    assert await wire.close() == 0
