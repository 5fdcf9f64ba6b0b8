"""Time `compare` against a history: 200 kept runs of a 1,000-case x 4-turn suite as BASE.

    python -m benchmarks.gate_bench [--runs N] [--cases N] [--times K]

Runs the generated suite of `compare_bench` (a Python agent that knows the figures) once
with `--history-dir` (a real kept run) and once more as the pull request (`-o head.json`,
turn 1 of every 10th case answered wrongly); the kept run is made into a history of 200 by
the history's own generator (`tests/support/kept_histories.py`: steady, flaky and broken
turns, prompt versions). Then, after one comparison to warm what can be warmed (the
history's index, the operating system's file cache), prints the median of K of:

- `compare HISTORY head.json --format markdown -o FILE` in the process, wall and CPU
  (target < 2 s), and each phase's (wall and CPU: on a shared machine CPU says more):
  reading the history (its index warm), pooling its runs (`history_side`),
  reading HEAD, judging every turn (`compare_sides`), rendering the comment;
- the same as a command, start-up included.

Reading the history (its index) is the history reader's phase, the rest the gate's.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.compare_bench import AGENT, FIRST_YEAR, ROOT, TOOLS
from holodeck_lsp.history.run_history import read_history
from holodeck_lsp.runner.report.comparison.comparison_formats import COMPARISON_FORMATS
from holodeck_lsp.runner.report.comparison.history_side import (
    HistoryChoice,
    chosen_runs,
    history_outcomes,
)
from holodeck_lsp.runner.report.comparison.run_sides import read_side
from holodeck_lsp.runner.report.comparison.side_outcomes import report_outcomes
from holodeck_lsp.runner.report.comparison.turn_changes import compare_sides
from tests.support.kept_histories import write_history
from tests.support.suites import suite

PROGRAM = str(Path(sys.executable).parent / "holodeck-lsp")


def _run(folder: Path, wrong: tuple[int, int], *args: str) -> None:
    (folder / "bench_agent.py").write_text(AGENT.format(wrong=wrong, first=FIRST_YEAR))
    command = [PROGRAM, "run", str(folder / "agent.yaml"), "--agent", "bench_agent:factory"]
    command += ["--no-user-config", "-q", "-p", "8", *args]
    done = subprocess.run(command, check=False, capture_output=True, text=True, cwd=ROOT)
    if done.returncode not in (0, 1):
        sys.exit(f"the run failed: {done.stderr}")


def make_history(folder: Path, runs: int, cases: int) -> tuple[Path, Path]:
    """The history folder (``runs`` kept runs) and HEAD's report."""
    (folder / "agent.yaml").write_text(suite(cases, first_year=FIRST_YEAR))
    (folder / "tools.py").write_text(TOOLS)
    kept = folder / "kept"
    _run(folder, (25, 0), "--history-dir", str(kept))
    head = folder / "head.json"
    _run(folder, (10, 1), "--no-history", "-o", str(head))
    (first,) = kept.glob("*.json")
    history = folder / "results" / "benchmark-suite"
    write_history(first, history, runs)
    return history, head


def in_process(history: Path, head: Path) -> dict[str, float]:
    """Each phase's wall and CPU seconds, and the whole comparison's."""
    times: dict[str, float] = {}
    start, cpu = time.perf_counter(), time.process_time()
    mark, mark_cpu = start, cpu

    def lap(name: str) -> None:
        nonlocal mark, mark_cpu
        now, now_cpu = time.perf_counter(), time.process_time()
        times[f"{name} (wall)"] = now - mark
        times[f"{name} (CPU)"] = now_cpu - mark_cpu
        mark, mark_cpu = now, now_cpu

    read = read_history(history)
    lap("read the history")
    head_side = read_side(head)
    lap("read HEAD")
    runs = chosen_runs(read.runs, HistoryChoice(leave_out=frozenset({head_side.report.timestamp})))
    base = history_outcomes(history, runs, tuple(case.key for case in head_side.cases))
    lap("pool the runs")
    comparison = compare_sides(base, report_outcomes(head_side))
    lap("judge every turn")
    COMPARISON_FORMATS["markdown"](comparison, "regressed")
    lap("render the comment")
    times["whole (wall)"] = time.perf_counter() - start
    times["whole (CPU)"] = time.process_time() - cpu
    return times


def as_command(history: Path, head: Path, out: Path) -> float:
    command = [PROGRAM, "compare", str(history), str(head), "--format", "markdown"]
    command += ["--output", str(out)]
    start = time.perf_counter()
    subprocess.run(command, check=False, capture_output=True, cwd=ROOT)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--times", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        started = time.perf_counter()
        history, head = make_history(folder, args.runs, args.cases)
        size = sum(f.stat().st_size for f in history.glob("*.json")) / 1e6
        made = time.perf_counter() - started
        print(f"history: {args.runs} runs, {size:,.0f} MB, made in {made:.0f} s")
        in_process(history, head)  # warm
        laps = [in_process(history, head) for _ in range(args.times)]
        for name in laps[0]:
            median = statistics.median(lap[name] for lap in laps)
            print(f"{name}: {median:.3f} s (median of {args.times})")
        commands = [as_command(history, head, folder / "comment.md") for _ in range(args.times)]
        print(f"compare as a command: {statistics.median(commands):.3f} s (median of {args.times})")


if __name__ == "__main__":
    main()
