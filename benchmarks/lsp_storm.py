"""Language server under a storm of edits: completion and hover latency, peak memory.

    python -m benchmarks.lsp_storm [--seconds 10] [--rate 100] [--bombs]

Drives `python -m holodeck_lsp.server` over stdio like an impatient editor: opens a
100-case 4-turn suite and types into it at ``--rate`` edits per second (a character in
and out of a test case's input, so every version is a valid suite one keystroke apart),
while asking for completion and hover every 50 ms each (at the cursor, as an editor
does). Prints p50/p95/max of each request's round trip, the edits sent, and the peak
RSS of the server with its worker processes. With ``--bombs``, a 9-level alias bomb,
500 nested `[` and a lone surrogate are also opened and edited meanwhile, and the time from
opening the alias bomb (and the nesting), in a server already up, to its HL007 diagnostic
is printed.
Targets on a 2-core machine: p95 < 250 ms; peak RSS < 500 MB (bombs included); the 9-level
alias bomb's diagnostic within 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from tests.support.suites import alias_bomb, suite

BOMB = alias_bomb(9)
NESTED = "name: deep\nmodel: " + "[" * 500 + "]" * 500 + "\n"
SURROGATE = "name: odd\nmodel:\n  provider: openai\n  name: \ud800\ntest_cases:\n  - input: x\n"


def tree_rss_mb(pid: int) -> float:
    """Resident memory of a process and all its descendants, now."""
    total = 0
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            for line in Path(f"/proc/{current}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
            children = [c for task in Path(f"/proc/{current}/task").iterdir()
                        for c in (task / "children").read_text().split()]
        except OSError:
            continue
        pending.extend(int(child) for child in children)
    return total / 1024


def percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (f"p50 {statistics.median(ordered):6.1f} ms, p95 {p95:6.1f} ms, "
            f"max {ordered[-1]:6.1f} ms ({len(ordered)} requests)")


async def storm(folder: Path, seconds: float, rate: float, bombs: bool) -> None:
    client = LanguageClient("lsp-storm", "1")
    opened: dict[str, float] = {}  # when each bomb was opened
    limited: dict[str, float] = {}  # when its HL007 (a limit passed) was first published

    warm = asyncio.Event()  # the suite's first diagnostics: the server and its worker are up

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)  # type: ignore[untyped-decorator]
    def published(params: types.PublishDiagnosticsParams) -> None:
        warm.set()
        if params.uri in opened and params.uri not in limited and any(
            d.code == "HL007" for d in params.diagnostics
        ):
            limited[params.uri] = time.perf_counter()

    await client.start_io(sys.executable, "-m", "holodeck_lsp.server")
    await client.initialize_async(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=from_fs_path(str(folder))))
    client.initialized(types.InitializedParams())
    assert client._server is not None
    pid = client._server.pid
    path = folder / "suite.agent.yaml"
    text = suite(100)
    uri = from_fs_path(str(path)) or ""
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri, "yaml", 1, text)))
    others = {"bomb.agent.yaml": BOMB, "nested.agent.yaml": NESTED,
              "surrogate.agent.yaml": SURROGATE} if bombs else {}
    await asyncio.wait_for(warm.wait(), 60)
    for name, body in others.items():
        other = from_fs_path(str(folder / name)) or ""
        opened[other] = time.perf_counter()
        client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
            other, "yaml", 1, body)))
    lines = text.split("\n")
    line = lines.index("      - input: What is the difference?", len(lines) // 2)
    cursor = types.Position(line, len("      - input: What is the difference?"))
    key = types.Position(line + 1, 10)  # on `ground_truth`
    timings: dict[str, list[float]] = {"completion": [], "hover": []}
    modified = {"completion": 0, "hover": 0}  # answered ContentModified (text moved on)
    peak = 0.0
    stop = time.perf_counter() + seconds

    async def typist() -> int:
        version = 1
        began = time.perf_counter()
        while time.perf_counter() < stop:
            version += 1
            typed = version % 2 == 0  # type a character, then delete it
            end = cursor.character + (0 if typed else 1)
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(version=version, uri=uri),
                [types.TextDocumentContentChangePartial(
                    range=types.Range(cursor, types.Position(line, end)),
                    text="?" if typed else "")]))
            for name in others if version % 50 == 0 else ():
                client.text_document_did_change(types.DidChangeTextDocumentParams(
                    types.VersionedTextDocumentIdentifier(version=version, uri=from_fs_path(
                        str(folder / name)) or ""),
                    [types.TextDocumentContentChangeWholeDocument(text=others[name])]))
            await asyncio.sleep(max(0.0, began + (version - 1) / rate - time.perf_counter()))
        return version - 1

    async def asker(name: str) -> None:
        while time.perf_counter() < stop:
            start = time.perf_counter()
            try:
                if name == "completion":
                    await client.text_document_completion_async(types.CompletionParams(
                        types.TextDocumentIdentifier(uri), cursor))
                else:
                    await client.text_document_hover_async(types.HoverParams(
                        types.TextDocumentIdentifier(uri), key))
            except JsonRpcException as exc:  # ContentModified (-32801): the text moved on
                if exc.code != -32801:
                    raise
                modified[name] += 1
            timings[name].append((time.perf_counter() - start) * 1000)
            await asyncio.sleep(0.05)

    async def watch() -> None:
        nonlocal peak
        while time.perf_counter() < stop + 2:
            peak = max(peak, tree_rss_mb(pid))
            await asyncio.sleep(0.05)

    edits, *_ = await asyncio.gather(typist(), asker("completion"), asker("hover"), watch())
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()  # type: ignore[no-untyped-call]
    print(f"storm: {edits} edits in {seconds:.0f} s ({edits / seconds:.0f}/s) on a 100-case "
          f"suite ({len(text) // 1024} KiB){', with the bombs open' if bombs else ''}")
    for name, values in timings.items():
        print(f"  {name:<10} {percentiles(values)}, {modified[name]} ContentModified")
    print(f"  peak RSS of the server and its workers: {peak:.0f} MB")
    for name in ("bomb.agent.yaml", "nested.agent.yaml") if bombs else ():
        other = from_fs_path(str(folder / name)) or ""
        took = (f"{(limited[other] - opened[other]) * 1000:.0f} ms" if other in limited
                else "never")
        print(f"  {name}: opened -> its HL007 diagnostic (a limit passed) in {took}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rate", type=float, default=100)
    parser.add_argument("--bombs", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("HOLODECK_LSP_LOG", "error")
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(storm(Path(folder).resolve(), args.seconds, args.rate, args.bombs))


if __name__ == "__main__":
    main()
