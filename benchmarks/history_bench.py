"""`holodeck-lsp history` on a long history: 200 kept runs of a 1,000-case x 4-turn suite.

    python -m benchmarks.history_bench [--cases N] [--runs R] [--times K] [--fresh]

The history is made once and kept in the temporary folder (`--fresh` makes it again): the
suite of `tests/support/suites.py` run by `run` with `compare_bench.py`'s agent (one kept
run, as `run` writes it), made into R runs by `tests/support/kept_histories.py`. Then,
each as the command a user runs (a fresh process):

- the cold first pass: `history AGENT` with no index (every file parsed, the index
  written), its wall time and peak memory;
- warm `history AGENT` (text) and `history AGENT --format json`: median of K (target < 2 s);
- warm `history AGENT --format html -o page.html`, the page's size, and the time headless
  Chromium takes from navigation to its load event, a fresh browser each time, median of
  K (target < 2 s).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.compare_bench import AGENT, FIRST_YEAR, TOOLS
from holodeck_lsp.history.outcome_index import index_path
from holodeck_lsp.history.results_folder import results_folder
from tests.chromium import Chromium, find_chromium
from tests.support.kept_histories import write_history
from tests.support.suites import suite

ROOT = Path(__file__).resolve().parents[1]
CLI = str(Path(sys.executable).parent / "holodeck-lsp")


def make_history(folder: Path, cases: int, runs: int) -> Path:
    """The agent file whose `results/<slug>/` holds ``runs`` kept runs."""
    agent = folder / "agent.yaml"
    done = folder / "complete"
    if done.exists():
        return agent
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    agent.write_text(suite(cases, first_year=FIRST_YEAR))
    (folder / "tools.py").write_text(TOOLS)
    (folder / "bench_agent.py").write_text(AGENT.format(wrong=(7, 1), first=FIRST_YEAR))
    base = folder / "base"
    command = [CLI, "run", str(agent), "--agent", "bench_agent:factory", "--no-user-config",
               "-q", "-p", "8", "--history-dir", str(base)]  # fmt: skip
    subprocess.run(command, check=False, capture_output=True, cwd=ROOT)
    (kept,) = base.iterdir()
    write_history(kept, results_folder(folder, "benchmark-suite"), runs)
    shutil.rmtree(base)
    done.write_text("")
    return agent


def timed(*args: str) -> tuple[float, int]:
    """Wall seconds and peak resident memory (MB) of `holodeck-lsp ARGS`."""
    start = time.perf_counter()
    process = subprocess.Popen(
        [CLI, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    stderr = process.stderr.read().decode() if process.stderr else ""
    if process.returncode != 0:
        sys.exit(f"holodeck-lsp {' '.join(args)} failed: {stderr}")
    return wall, usage.ru_maxrss // 1024


def opening(page: Path, times: int) -> list[float]:
    binary = find_chromium()
    if binary is None:
        return []
    seconds = []
    for _ in range(times):
        with Chromium(binary) as browser:
            seconds.append(browser.open(page))
            if browser.problems:
                sys.exit(f"the page has console errors: {browser.problems}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--times", type=int, default=5)
    parser.add_argument("--fresh", action="store_true")
    args = parser.parse_args()
    folder = Path(tempfile.gettempdir()) / f"holodeck-lsp-history-{args.cases}x{args.runs}"
    if args.fresh:
        shutil.rmtree(folder, ignore_errors=True)
    start = time.perf_counter()
    agent = make_history(folder, args.cases, args.runs)
    runs = results_folder(folder, "benchmark-suite")
    size = sum(p.stat().st_size for p in runs.iterdir())
    print(f"history: {args.runs} runs of {args.cases} cases x 4 turns, {size / 1e6:,.0f} MB "
          f"of JSON in {runs} (made or found in {time.perf_counter() - start:.1f} s)")  # fmt: skip
    index = index_path(runs)
    index.unlink(missing_ok=True)
    for stale in index.parent.glob(index.name + "-*"):
        stale.unlink()
    cold, peak = timed("history", str(agent))
    print(f"cold first pass (no index): {cold:.2f} s, peak memory {peak} MB")
    for label, extra in (("text", ()), ("json", ("--format", "json"))):
        walls = [timed("history", str(agent), *extra)[0] for _ in range(args.times)]
        print(f"warm history ({label}): median {statistics.median(walls):.2f} s "
              f"(runs: {', '.join(f'{w:.2f}' for w in walls)}) target < 2 s")  # fmt: skip
    page = folder / "history.html"
    walls = [timed("history", str(agent), "--format", "html", "-o", str(page))[0]
             for _ in range(args.times)]  # fmt: skip
    print(f"warm history --format html: median {statistics.median(walls):.2f} s, page "
          f"{page.stat().st_size / 1e6:.2f} MB")  # fmt: skip
    seconds = opening(page, args.times)
    if seconds:
        print(f"Chromium load: median {statistics.median(seconds):.2f} s "
              f"(runs: {', '.join(f'{s:.2f}' for s in seconds)}) target < 2 s")  # fmt: skip
    else:
        print("Chromium load: not measured (no chromium)")
    print(f"load average: {', '.join(f'{v:.1f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
