"""Runner throughput and concurrency against a loopback model service.

    python -m benchmarks.runner_bench

(a) Overhead per turn: 100 cases x 4 turns against a service that answers at once;
    turns per second at parallel_test_cases 1 and 16 (target >= 500 on a 2-core machine),
    and the runner's own CPU time per turn, which depends less on what else the machine
    is doing than wall time does.
(b) 100 cases x 4 turns with 50 ms of service latency at parallel_test_cases 1, 4, 16:
    wall time against the ideal cases x turns x 50 ms / parallelism (target <= 1.25x).

The service runs in its own process (a minimal asyncio server speaking the OpenAI Chat
Completions protocol), so it does not compete with the runner for the GIL.
"""

from __future__ import annotations

import asyncio
import io
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.support.suites import ANSWER_TURNS, answer_suite

CASES, LATENCY = 100, 0.05


def _http(body: dict[str, object]) -> bytes:
    data = json.dumps(body).encode()
    return (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
        % (len(data), data)
    )


# The same short reply in the Chat Completions and the Responses API shapes.
CHAT_REPLY = _http(
    {
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "42"}}],
        "usage": {"prompt_tokens": 12, "completion_tokens": 1, "total_tokens": 13},
    }
)
RESPONSES_REPLY = _http(
    {
        "id": "r",
        "object": "response",
        "created_at": 0,
        "model": "bench",
        "status": "completed",
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "output": [
            {
                "type": "message",
                "id": "m",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": "42", "annotations": []}],
            }
        ],
        "usage": {
            "input_tokens": 12,
            "output_tokens": 1,
            "total_tokens": 13,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens_details": {"reasoning_tokens": 0},
        },
    }
)


def serve(latency: float) -> None:
    """The model service: every request gets a short reply after ``latency`` seconds, in
    the Responses API's shape on `/responses`, else in Chat Completions'.

    One asyncio loop, no threads: the service must not be what the benchmark measures.
    """

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    if line[:15].lower() == b"content-length:":
                        length = int(line[15:])
                await reader.readexactly(length)
                if latency:
                    await asyncio.sleep(latency)
                path = head.split(b" ", 2)[1]
                writer.write(RESPONSES_REPLY if b"/responses" in path else CHAT_REPLY)
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    async def main() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=128)
        print(server.sockets[0].getsockname()[1], flush=True)
        await server.serve_forever()

    asyncio.run(main())


def suite(folder: Path, port: int) -> Path:
    path = folder / "agent.yaml"
    model = f"{{provider: openai, name: bench, endpoint: 'http://127.0.0.1:{port}/v1'}}"
    path.write_text(answer_suite(CASES, model, "{metric: numeric}"), encoding="utf-8")
    return path


def service_command(latency: float) -> list[str]:
    """The loopback model service's process (this module, from the repository root)."""
    return [sys.executable, "-m", "benchmarks.runner_bench", "--serve", str(latency)]


def timed_run(path: Path, parallel: int) -> tuple[float, float, float]:
    """Seconds of one `run`: executing the test cases (the report's total_duration_ms),
    the whole command (loading and validating the suite included), and the CPU time of
    this process over the whole command."""
    from holodeck_lsp.runner.command import (
        CollectOptions,
        ExecuteOptions,
        ReportOptions,
        RunOptions,
        run_command,
    )

    report = path.parent / "report.json"
    options = RunOptions(
        path,
        collect=CollectOptions(user_config=False),
        execute=ExecuteOptions(parallel=parallel),
        report=ReportOptions(outputs=[report], quiet=True),
    )
    start, cpu = time.perf_counter(), time.process_time()
    code = run_command(options, io.StringIO(), sys.stderr)
    whole, used = time.perf_counter() - start, time.process_time() - cpu
    if code != 0:
        raise SystemExit(f"the run failed with exit code {code}")
    executing = json.loads(report.read_text())["summary"]["total_duration_ms"] / 1000
    return executing, whole, used


def with_service(latency: float, body: object) -> None:
    process = subprocess.Popen(
        service_command(latency), stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        port = int(process.stdout.readline())
        with tempfile.TemporaryDirectory() as folder:
            path = suite(Path(folder), port)
            timed_run(path, 4)  # warm-up: imports, model build, connections
            body(path)  # type: ignore[operator]
    finally:
        process.terminate()
        process.wait(timeout=10)


def main() -> None:
    turns = CASES * ANSWER_TURNS

    def overhead(path: Path) -> None:
        for parallel in (1, 16):
            elapsed, whole, cpu = timed_run(path, parallel)
            print(
                f"(a) zero latency, parallel {parallel:>2}: {turns} turns in {elapsed:.2f} s = "
                f"{turns / elapsed:,.0f} turns/s (target >= 500); whole command "
                f"{whole:.2f} s; runner CPU {1000 * cpu / turns:.2f} ms/turn"
            )

    def concurrency(path: Path) -> None:
        for parallel in (1, 4, 16):
            ideal = turns * LATENCY / parallel
            elapsed, whole, _ = timed_run(path, parallel)
            print(
                f"(b) 50 ms latency, parallel {parallel:>2}: {elapsed:.2f} s, ideal {ideal:.2f} s, "
                f"ratio {elapsed / ideal:.2f} (target <= 1.25); whole command {whole:.2f} s"
            )

    with_service(0.0, overhead)
    with_service(LATENCY, concurrency)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        serve(float(sys.argv[2]))
    else:
        main()
