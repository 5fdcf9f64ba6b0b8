"""Runner throughput and concurrency against a loopback model service.

    python benchmarks/runner_bench.py

(a) Overhead per turn: 100 cases x 4 turns against a service that answers at once;
    turns per second at parallel_test_cases 1 and 16 (target >= 500 on a 2-core machine).
(b) 100 cases x 4 turns with 50 ms of service latency at parallel_test_cases 1, 4, 16:
    wall time against the ideal cases x turns x 50 ms / parallelism (target <= 1.25x).

The service runs in its own process (standard-library HTTP server speaking the OpenAI
Chat Completions protocol), so it does not compete with the runner for the GIL.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tempfile
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

CASES, TURNS, LATENCY = 100, 4, 0.05


def serve(latency: float) -> None:
    """The model service: every request gets a short reply after ``latency`` seconds."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: object) -> None:
            return None

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("content-length", "0")))
            if latency:
                time.sleep(latency)
            body = json.dumps(
                {
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": "42"}}],
                    "usage": {"prompt_tokens": 12, "completion_tokens": 1, "total_tokens": 13},
                }
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.request_queue_size = 128
    print(server.server_address[1], flush=True)
    server.serve_forever()


def suite(folder: Path, port: int) -> Path:
    lines = [
        "name: bench",
        f"model: {{provider: openai, name: bench, endpoint: 'http://127.0.0.1:{port}/v1'}}",
        "instructions: {inline: Answer 42.}",
        "test_cases:",
    ]
    for case in range(CASES):
        lines.append(f"  - name: case {case}\n    turns:")
        for turn in range(TURNS):
            lines.append(
                f"      - input: 'case {case} turn {turn}'\n        ground_truth: '42'\n"
                "        evaluations: [{metric: numeric}]"
            )
    path = folder / "agent.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def timed_run(path: Path, parallel: int) -> float:
    from holodeck_lsp.runner.command import RunOptions, run

    options = RunOptions(path, parallel=parallel, quiet=True, user_config=False)
    start = time.perf_counter()
    code = run(options, io.StringIO(), sys.stderr)
    elapsed = time.perf_counter() - start
    if code != 0:
        raise SystemExit(f"the run failed with exit code {code}")
    return elapsed


def with_service(latency: float, body: object) -> None:
    process = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(latency)], stdout=subprocess.PIPE, text=True
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
    turns = CASES * TURNS

    def overhead(path: Path) -> None:
        for parallel in (1, 16):
            elapsed = timed_run(path, parallel)
            print(
                f"(a) zero latency, parallel {parallel:>2}: {turns} turns in {elapsed:.2f} s = "
                f"{turns / elapsed:,.0f} turns/s (target >= 500)"
            )

    def concurrency(path: Path) -> None:
        for parallel in (1, 4, 16):
            ideal = turns * LATENCY / parallel
            elapsed = timed_run(path, parallel)
            print(
                f"(b) 50 ms latency, parallel {parallel:>2}: {elapsed:.2f} s, ideal {ideal:.2f} s, "
                f"ratio {elapsed / ideal:.2f} (target <= 1.25)"
            )

    with_service(0.0, overhead)
    with_service(LATENCY, concurrency)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        serve(float(sys.argv[2]))
    else:
        main()
