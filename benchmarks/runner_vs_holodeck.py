"""`holodeck-lsp run` and HoloDeck 0.7.1's `holodeck test` side by side, on the same suites
against the same loopback model service.

    python -m benchmarks.runner_vs_holodeck [--repeat 3]

Scenarios: 100 test cases x 4 turns with a service that answers at once, and 20 x 4 with
50 ms of service latency, each at parallel_test_cases 1 and 8. For each runner: wall time
of the whole command (start-up included), turns per second over that wall time, peak
resident memory of the process; for ours also the run's own duration from its report,
against the ideal at 50 ms: cases x turns x latency / parallelism, and the floor of the
schedule, ceil(cases / parallelism) x turns x latency (a test case's turns are sequential, so
20 cases at parallel 8 take three rounds). The median of ``--repeat`` runs is printed;
``--ours-only`` measures our runner alone (quick).

HoloDeck runs from the differential tests' cached venv (built on first use: a few
minutes). The service runs in its own process, so it does not compete with either runner.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.runner_bench import service_command
from tests.differential.runner.harness import holodeck_env
from tests.differential.runner.runner_env import ensure_runner_env
from tests.support.suites import ANSWER_TURNS, answer_suite

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = [(100, 0.0, 1), (100, 0.0, 8), (20, 0.05, 1), (20, 0.05, 8)]



@dataclass
class Measure:
    wall: float  # seconds, the whole command
    rss_mb: float  # peak resident memory of the process
    run: float | None  # seconds, the run itself as its report says (ours)


def write_suite(folder: Path, cases: int, parallel: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "agent.yaml"
    path.write_text(answer_suite(
        cases, "{provider: openai, name: gpt-4o-mini}", "{type: standard, metric: equality}",
        f"{{parallel_test_cases: {parallel}, llm_timeout: 60}}"), encoding="utf-8")
    return path


def measure(command: list[str], cwd: Path, env: dict[str, str]) -> Measure:
    start = time.perf_counter()
    child = subprocess.Popen(
        command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 1):
        raise SystemExit(f"{command[0]} exited {child.returncode}")
    return Measure(wall, usage.ru_maxrss / 1024, None)


def ours(agent: Path, url: str) -> Measure:
    report = agent.parent / "ours.json"
    env = {"PATH": os.environ.get("PATH", ""), "OPENAI_BASE_URL": url, "OPENAI_API_KEY": "sk-b"}
    script = Path(sys.executable).with_name("holodeck-lsp")
    command = [str(script), "run", str(agent), "-q", "-o", str(report)]
    result = measure(command, REPO, env)
    result.run = json.loads(report.read_text())["summary"]["total_duration_ms"] / 1000
    return result


def theirs(agent: Path, url: str, cli: Path) -> Measure:
    home = agent.parent / ".home"
    home.mkdir(exist_ok=True)
    command = [str(cli), "test", "run", str(agent), "-q", "--output", str(agent.parent / "hd.json")]
    return measure(command, agent.parent, holodeck_env(url, home))


def median(values: list[float]) -> float:
    return statistics.median(values)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--ours-only", action="store_true")
    args = parser.parse_args()
    cli = None if args.ours_only else ensure_runner_env()
    rows = []
    for cases, latency, parallel in SCENARIOS:
        service = subprocess.Popen(
            service_command(latency), stdout=subprocess.PIPE, text=True  # both protocols
        )
        try:
            assert service.stdout is not None
            url = f"http://127.0.0.1:{service.stdout.readline().strip()}/v1"
            mine: list[Measure] = []
            holodeck: list[Measure] = []
            with tempfile.TemporaryDirectory() as tmp:
                for i in range(args.repeat):
                    mine.append(ours(write_suite(Path(tmp) / f"o{i}", cases, parallel), url))
                    if cli is not None:
                        agent = write_suite(Path(tmp) / f"h{i}", cases, parallel)
                        holodeck.append(theirs(agent, url, cli))
                    else:
                        holodeck.append(Measure(float("nan"), float("nan"), None))
        finally:
            service.kill()
            service.wait()
        turns = cases * ANSWER_TURNS
        ideal = turns * latency / parallel
        floor = -(-cases // parallel) * ANSWER_TURNS * latency
        row = {
            "scenario": f"{cases} x {ANSWER_TURNS}, {latency * 1000:.0f} ms, parallel {parallel}",
            "ours_wall": median([m.wall for m in mine]),
            "holodeck_wall": median([m.wall for m in holodeck]),
            "ours_rss": median([m.rss_mb for m in mine]),
            "holodeck_rss": median([m.rss_mb for m in holodeck]),
            "ours_run": median([m.run or 0.0 for m in mine]),
            "ideal": ideal,
            "floor": floor,
            "turns": turns,
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
    print()
    print(
        "| scenario | ours: wall | ours: turns/s | ours: peak RSS | holodeck test: wall "
        "| holodeck test: turns/s | holodeck test: peak RSS | wall ratio "
        "| ours: run / ideal (/ floor) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        ratio = r["holodeck_wall"] / r["ours_wall"]
        vs_ideal = (
            f"{r['ours_run'] / r['ideal']:.2f}x ({r['ours_run'] / r['floor']:.2f}x)"
            if r["ideal"]
            else "-"
        )
        print(
            f"| {r['scenario']} | {r['ours_wall']:.2f} s | {r['turns'] / r['ours_wall']:,.0f} "
            f"| {r['ours_rss']:.0f} MB | {r['holodeck_wall']:.2f} s "
            f"| {r['turns'] / r['holodeck_wall']:,.0f} | {r['holodeck_rss']:.0f} MB "
            f"| {ratio:.1f}x | {vs_ideal} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
