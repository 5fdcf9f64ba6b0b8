"""Language server: time from an edit to its diagnostics, and the server's peak memory.

    python -m benchmarks.lsp_latency [--edits 20] [--hostile]

Drives `python -m holodeck_lsp.server` over stdio like an editor: opens a 100-case and a
1,000-case 4-turn suite, then makes single edits (a pause between them, as a typist
makes) and times each from `didChange` to the `publishDiagnostics` of that version.
Prints the median of 20, the CPU time per edit and the peak RSS of the server with its
validation worker process, then the CPU
time of each step of one validation in-process (parse, validate, convert), to show
where the time goes; CPU times do not grow when other processes load the machine.
Targets on a 2-core machine: <= 50 ms (100 cases), <= 250 ms (1,000 cases), <= 250 MB.
`--hostile` first opens a document that takes seconds to validate (`crowded_suite`, two
million characters) and sends it again each time its diagnostics come, so that one
validation is always running beside the edits: their latency must stay the same.
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
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from holodeck_lsp.server import gc_pause, jobs
from holodeck_lsp.server.settings import Settings
from holodeck_lsp.validation.validate import ValidationContext, validate_text
from holodeck_lsp.validation.yaml.loader import load_yaml
from tests.support.suites import crowded_suite, suite

PAUSE = 0.3  # seconds between edits: longer than the server's debounce window


def tree(pid: int) -> list[int]:
    """A process and all its descendants (the server's validation worker among them)."""
    found, pending = [], [pid]
    while pending:
        current = pending.pop()
        found.append(current)
        try:
            pending.extend(int(c) for task in Path(f"/proc/{current}/task").iterdir()
                           for c in (task / "children").read_text().split())
        except OSError:
            continue
    return found


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the server and its workers have used so far."""
    total = 0.0
    for each in tree(pid):
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def peak_rss_mb(pid: int) -> float:
    """The sum of each process's peak RSS (an upper bound of the tree's peak)."""
    total = 0
    for each in tree(pid):
        try:
            for line in Path(f"/proc/{each}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


HOSTILE_CHARACTERS = 1_990_000  # under the size the editor validates


async def drive(path: Path, text: str, edits: int, hostile: bool = False
                ) -> tuple[list[float], float, float]:
    client = LanguageClient("lsp-latency", "1")
    arrived: dict[int, float] = {}
    waiting: dict[int, asyncio.Future[None]] = {}
    slow_uri = from_fs_path(str(path.with_name("hostile.agent.yaml"))) or ""
    slow_text = crowded_suite(HOSTILE_CHARACTERS) if hostile else ""
    slow_versions = [1]

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)  # type: ignore[untyped-decorator]
    def published(params: types.PublishDiagnosticsParams) -> None:
        if params.uri == slow_uri:  # validated (or stopped): validate it again at once
            slow_versions.append(slow_versions[-1] + 1)
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(version=slow_versions[-1], uri=slow_uri),
                [types.TextDocumentContentChangeWholeDocument(
                    text=slow_text + f"# {slow_versions[-1]}\n")]))
        elif params.version is not None:
            arrived[params.version] = time.perf_counter()
            future = waiting.pop(params.version, None)
            if future is not None and not future.done():
                future.set_result(None)

    await client.start_io(sys.executable, "-m", "holodeck_lsp.server")
    caps = types.ClientCapabilities(text_document=types.TextDocumentClientCapabilities(
        publish_diagnostics=types.PublishDiagnosticsClientCapabilities(version_support=True)))
    await client.initialize_async(types.InitializeParams(
        capabilities=caps, root_uri=from_fs_path(str(path.parent))))
    client.initialized(types.InitializedParams())
    uri = from_fs_path(str(path)) or ""
    loop = asyncio.get_running_loop()
    if hostile:
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(slow_uri, "yaml", 1, slow_text)))

    async def until(version: int) -> None:
        if version in arrived:
            return
        future = waiting[version] = loop.create_future()
        await asyncio.wait_for(future, 300)

    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri, "yaml", 1, text)))
    await until(1)
    # Edit the first case's first ground truth: valid and invalid in turn.
    line = text.split("\n").index('        ground_truth: "200000"')
    latencies = []
    assert client._server is not None
    cpu_before = cpu_seconds(client._server.pid)
    for version in range(2, edits + 2):
        await asyncio.sleep(PAUSE)
        value = '"200000"' if version % 2 else "200000"
        sent = time.perf_counter()
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=version, uri=uri),
            [types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(line, 22), types.Position(line, 100)),
                text=value)]))
        await until(version)
        latencies.append((arrived[version] - sent) * 1000)
    cpu = (cpu_seconds(client._server.pid) - cpu_before) / edits * 1000
    peak = peak_rss_mb(client._server.pid)
    if hostile:
        print(f"        the hostile document was validated {len(slow_versions) - 1} times "
              "meanwhile")
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()  # type: ignore[no-untyped-call]
    return latencies, peak, cpu


def steps(path: Path, text: str, runs: int = 5) -> dict[str, float]:
    """Median milliseconds of each step of one validation, in this process."""
    context = ValidationContext(user_config_dir=None)
    snapshot = jobs.Snapshot(
        uri="", path=path, text=text, version=1, language_id="yaml", others={}, versions={},
        settings=Settings(), roots=(path.parent,), encoding=types.PositionEncodingKind.Utf16,
        related_information=True, known=True, user_config_dir=None)
    timings: dict[str, list[float]] = {"parse": [], "validate (incl. parse)": [],
                                       "whole job (validate + convert)": []}
    clock = time.process_time  # CPU time: what the machine's other load does not inflate
    for _ in range(runs):
        with gc_pause.paused():  # as on the server's worker
            start = clock()
            load_yaml(text)
            timings["parse"].append(clock() - start)
            start = clock()
            validate_text(text, path, context)
            timings["validate (incl. parse)"].append(clock() - start)
            start = clock()
            jobs.run(snapshot)
            timings["whole job (validate + convert)"].append(clock() - start)
    return {name: statistics.median(values) * 1000 for name, values in timings.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--sizes", type=int, nargs="*", default=[100, 1000])
    parser.add_argument("--hostile", action="store_true",
                        help="edit while a slow document is validated beside the suite")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for size in args.sizes:
            path = Path(folder) / f"suite{size}.agent.yaml"
            text = suite(size)
            path.write_text(text)
            latencies, peak, cpu = asyncio.run(drive(path, text, args.edits, args.hostile))
            print(f"{size:>5} cases ({len(text) // 1024} KiB): edit -> diagnostics median "
                  f"{statistics.median(latencies):.0f} ms (min {min(latencies):.0f}, max "
                  f"{max(latencies):.0f}); server CPU {cpu:.0f} ms per edit; "
                  f"peak RSS {peak:.0f} MB")
            print("        CPU time of one validation, in this process:")
            for name, ms in steps(path, text).items():
                print(f"        {name:<32} {ms:7.1f} ms")


if __name__ == "__main__":
    main()
