"""Time `compare` of two 1,000-case x 4-turn reports, and size its Markdown comment.

    python -m benchmarks.compare_bench [--cases N] [--times K]

Runs the generated suite (`tests/support/suites.py`, each case a year of its own) twice with a
Python agent that knows the figures: on main (BASE) turn 0 of every 25th case is answered
wrongly, on the pull request (HEAD) turn 1 of every 10th case instead, so the comparison
holds regressions, fixes and still failing turns. Then prints, median of K:

- `compare` in the process: both reports read and matched, every turn classified, the
  text, Markdown and JSON rendered, wall and CPU time (target < 1 s);
- `compare --format markdown -o FILE` as a command, start-up included;
- the size of that Markdown comment, and of the worst case: every case regressed in 2 of
  its 4 turns, each name 130 characters (target < 65,536 characters, no regression cut).
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from holodeck_lsp.runner.report.comparison.comparison_formats import (
    COMPARISON_FORMATS,
)
from holodeck_lsp.runner.report.comparison.comparison_markdown import COMMENT_LIMIT
from holodeck_lsp.runner.report.comparison.run_sides import read_side
from holodeck_lsp.runner.report.comparison.turn_changes import compare_runs
from tests.runner.compared_runs import many_cases
from tests.support.suites import suite

ROOT = Path(__file__).resolve().parents[1]

FIRST_YEAR = 1000  # case i asks about year 1000 + i: the agent tells the cases apart
AGENT = textwrap.dedent(
    """
    import re

    WRONG = {wrong}  # (every n-th case, turn) answered wrongly

    class Session:
        def __init__(self):
            self.case = None
            self.turn = 0

        def send(self, message):
            turn, self.turn = self.turn, self.turn + 1
            year = re.search(r"(\\d{{4}})", message)
            if self.case is None:
                self.case = int(year.group(1)) - {first}
            i = self.case
            a, b = 200000 + i, 180000 + 3 * i
            off = 7 if i % WRONG[0] == 0 and turn == WRONG[1] else 0
            usage = {{"prompt_tokens": 100, "completion_tokens": 5, "total_tokens": 105}}
            if turn < 2:
                value = (a if turn == 0 else b) + off
                args = {{"row": "Operating Cash", "year": int(year.group(1))}}
                call = {{"name": "lookup", "args": args, "result": value, "duration_ms": 1}}
                return {{"text": str(value), "tool_calls": [call], "usage": usage}}
            if turn == 2:
                call = {{"name": "subtract", "args": {{"a": b, "b": float(a)}}, "result": b - a}}
                return {{"text": str(b - a + off), "tool_calls": [call], "usage": usage}}
            return {{"text": "Operating cash fell from one year to the next.", "usage": usage}}

    def factory():
        return Session()
    """
)
TOOLS = "def lookup(row, year):\n    return 0\n\ndef subtract(a, b):\n    return a - b\n"


def run(folder: Path, cases: int, wrong: tuple[int, int]) -> Path:
    folder.mkdir()
    (folder / "agent.yaml").write_text(suite(cases, first_year=FIRST_YEAR))
    (folder / "tools.py").write_text(TOOLS)
    (folder / "bench_agent.py").write_text(AGENT.format(wrong=wrong, first=FIRST_YEAR))
    report = folder / "report.json"
    command = [
        str(Path(sys.executable).parent / "holodeck-lsp"), "run", str(folder / "agent.yaml"),
        "--agent", "bench_agent:factory", "--no-user-config", "-q", "-p", "8", "-o", str(report),
    ]  # fmt: skip
    done = subprocess.run(command, check=False, capture_output=True, text=True, cwd=ROOT)
    if not report.exists():
        sys.exit(f"the run wrote no report: {done.stderr}")
    return report


def in_process(base: Path, head: Path) -> tuple[float, float, int]:
    """Wall and CPU seconds of one comparison, and its regressions."""
    start, cpu = time.perf_counter(), time.process_time()
    comparison = compare_runs(read_side(base), read_side(head))
    for render in COMPARISON_FORMATS.values():
        render(comparison, "regressed")
    return time.perf_counter() - start, time.process_time() - cpu, comparison.turns.regressions


def as_command(base: Path, head: Path, out: Path) -> float:
    command = [
        str(Path(sys.executable).parent / "holodeck-lsp"), "compare", str(base), str(head),
        "--format", "markdown", "--output", str(out),
    ]  # fmt: skip
    start = time.perf_counter()
    subprocess.run(command, check=False, capture_output=True, cwd=ROOT)
    return time.perf_counter() - start


def worst_case(folder: Path, cases: int) -> tuple[int, int]:
    names = [f"case {i:04d}: " + "a rather long test case name " * 4 for i in range(cases)]
    base = many_cases(folder / "all-pass.json", names, turns=4, failing=set())
    failing = {(i, t) for i in range(cases) for t in range(4) if (i + t) % 2}
    head = many_cases(folder / "half-fail.json", names, turns=4, failing=failing)
    comparison = compare_runs(read_side(base), read_side(head))
    markdown = COMPARISON_FORMATS["markdown"](comparison, "regressed")
    regressions = markdown.split("<details>")[0]
    return len(markdown), len(set(re.findall(r"`case (\d{4})", regressions)))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--times", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        base = run(folder / "main", args.cases, (25, 0))
        head = run(folder / "pr", args.cases, (10, 1))
        sizes = [base.stat().st_size / 1e6, head.stat().st_size / 1e6]
        print(f"reports: {args.cases} cases x 4 turns, {sizes[0]:.1f} MB and {sizes[1]:.1f} MB")
        runs = [in_process(base, head) for _ in range(args.times)]
        times = [took for took, _, _ in runs]
        cpu = statistics.median(c for _, c, _ in runs)
        print(
            f"compare in the process (read, match, classify, text + Markdown + JSON): median "
            f"{statistics.median(times):.2f} s, fastest {min(times):.2f} s of {args.times}, "
            f"CPU {cpu:.2f} s (target < 1 s); {runs[0][2]} regression(s)"
        )
        comment = folder / "comment.md"
        walls = [as_command(base, head, comment) for _ in range(args.times)]
        print(
            f"holodeck-lsp compare --format markdown -o FILE: median "
            f"{statistics.median(walls):.2f} s, fastest {min(walls):.2f} s (start-up included)"
        )
        size = len(comment.read_text(encoding="utf-8"))
        print(f"its Markdown comment: {size:,} characters (limit {COMMENT_LIMIT:,})")
        worst, listed = worst_case(folder, args.cases)
        print(
            f"worst case, every case regressed, names of 130 characters: {worst:,} characters, "
            f"{listed:,} regressed case(s) listed of {args.cases:,}"
        )


if __name__ == "__main__":
    main()
