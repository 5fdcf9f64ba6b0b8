"""Ingestion of a vector store source against a loopback embeddings service.

    python -m benchmarks.ingest_bench [--runs N]

1,000 markdown files (about 2 MB) are ingested into the in-memory store by `run`
(preflight), against a service that answers at once with 1,536-dimension vectors
(`text-embedding-3-small`); then the same suite runs again. Prints, per run, the wall
time of the whole `run` and the embedding requests the service received. Targets: the
first run under 10 s, the second with 0 embedding requests (everything from the cache).

The service runs in its own process (asyncio, no threads), so it does not compete with
the runner for the GIL.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FILES, FILE_BYTES, DIMENSIONS = 1000, 2000, 1536


def serve() -> None:
    """Embeddings (one fixed vector per input) and a one-word chat reply; `GET /count`
    tells how many embedding requests arrived."""
    vector = "[" + ",".join(["0.0255"] * DIMENSIONS) + "]"
    chat = json.dumps(
        {"choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}}]}
    ).encode()
    count = 0

    def embeddings(body: bytes) -> bytes:
        texts = json.loads(body)["input"]
        items = ",".join(
            f'{{"object":"embedding","index":{i},"embedding":{vector}}}' for i in range(len(texts))
        )
        return f'{{"object":"list","data":[{items}]}}'.encode()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal count
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    if line[:15].lower() == b"content-length:":
                        length = int(line[15:])
                body = await reader.readexactly(length)
                target = head.split(b" ", 2)[1]
                if target.endswith(b"/embeddings"):
                    count += 1
                    payload = embeddings(body)
                elif target == b"/count":
                    payload = str(count).encode()
                else:
                    payload = chat
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                    b"Content-Length: %d\r\n\r\n%s" % (len(payload), payload)
                )
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    async def main() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=128)
        print(server.sockets[0].getsockname()[1], flush=True)
        await server.serve_forever()

    asyncio.run(main())


def corpus(folder: Path) -> int:
    """FILES markdown files of about FILE_BYTES each; returns the total size."""
    rng = random.Random(7)
    words = [
        f"{a}{b}" for a in ("al", "be", "ga", "de", "ep", "ze") for b in ("ta", "mo", "ri", "x")
    ]
    total = 0
    for i in range(FILES):
        lines = [f"# Document {i}", ""]
        size = 0
        while size < FILE_BYTES:
            sentence = " ".join(rng.choice(words) for _ in range(12)).capitalize() + "."
            lines.append(sentence)
            size += len(sentence) + 1
        text = "\n".join(lines) + "\n"
        (folder / "docs" / f"d{i // 100}").mkdir(parents=True, exist_ok=True)
        (folder / "docs" / f"d{i // 100}" / f"doc{i:04d}.md").write_text(text)
        total += len(text.encode())
    return total


def suite(folder: Path, port: int) -> Path:
    agent = folder / "agent.yaml"
    agent.write_text(
        "name: ingest-bench\n"
        f"model: {{provider: openai, name: bench, endpoint: 'http://127.0.0.1:{port}/v1'}}\n"
        "instructions: {inline: Answer.}\n"
        "tools:\n"
        "  - {name: docs, type: vectorstore, description: Documents, source: docs}\n"
        "test_cases:\n"
        "  - input: hello\n"
    )
    return agent


def requests(port: int) -> int:
    import httpx

    return int(httpx.get(f"http://127.0.0.1:{port}/count").text)


def one_run(agent: Path, port: int) -> tuple[float, int]:
    from holodeck_lsp.runner.command import ReportOptions, RunOptions, run_command

    before = requests(port)
    start = time.perf_counter()
    options = RunOptions(agent, report=ReportOptions(quiet=True))
    code = run_command(options, io.StringIO(), io.StringIO(), env={})
    elapsed = time.perf_counter() - start
    if code != 0:
        raise SystemExit(f"run exited {code}")
    return elapsed, requests(port) - before


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3, help="cold/warm pairs to measure")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve()
        return
    service = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.ingest_bench", "--serve"], stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert service.stdout is not None
        port = int(service.stdout.readline())
        cold, warm = [], []
        for run_index in range(args.runs):
            with tempfile.TemporaryDirectory() as tmp:
                folder = Path(tmp)
                size = corpus(folder)
                agent = suite(folder, port)
                first = one_run(agent, port)
                second = one_run(agent, port)
            cold.append(first[0])
            warm.append(second[0])
            print(
                f"run {run_index + 1}: {FILES} files, {size / 1e6:.2f} MB; "
                f"first {first[0]:.2f} s, {first[1]} embedding request(s); "
                f"second {second[0]:.2f} s, {second[1]} embedding request(s)"
            )
        print(
            f"median: first run {statistics.median(cold):.2f} s (target < 10 s), "
            f"second run {statistics.median(warm):.2f} s"
        )
    finally:
        service.terminate()
        service.wait()


if __name__ == "__main__":
    main()
