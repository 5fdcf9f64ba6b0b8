"""Size and opening time of the HTML report of a 1,000-case x 4-turn run.

    python -m benchmarks.html_report_bench [--cases N] [--opens K] [--baseline]

Runs the generated suite (`tests/support/suites.py`) with a Python agent that calls the tools the
assertions name but does not know the suite's figures: every case fails, so every case
is open in the page with its errors, diffs and tool calls, the report's worst case.
Prints the file's size (target < 5 MB) and the time headless Chromium takes from
navigation to the load event, a fresh browser each time, median of K (target < 2 s).
With `--baseline`, the run is compared with one where every case passed
(`compare_bench.py`'s agent, which knows the figures): every case regressed, each with its
badge, and the page's head lists them all (target < 2 s).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from tests.chromium import Chromium, find_chromium
from tests.support.suites import suite

ROOT = Path(__file__).resolve().parents[1]

AGENT = textwrap.dedent(
    """
    import re

    class Session:
        def __init__(self):
            self.figures = []

        def send(self, message):
            year = re.search(r"(\\d{4})", message)
            if year:
                value = 200000 + int(year.group(1)) % 97
                self.figures.append(value)
                args = {"row": "Operating Cash", "year": int(year.group(1))}
                return {"text": f"{value:,}", "tool_calls": [
                    {"name": "lookup", "args": args, "result": value, "duration_ms": 1}]}
            if message.startswith("What is the difference"):
                a, b = (self.figures + [0, 0])[:2]
                call = {"name": "subtract", "args": {"a": b, "b": float(a)}, "result": b - a}
                return {"text": str(b - a), "tool_calls": [call]}
            return "Operating cash fell from the first year to the second, as the table shows."

    def factory():
        return Session()
    """
)
TOOLS = "def lookup(row, year):\n    return 0\n\ndef subtract(a, b):\n    return a - b\n"


def make_report(folder: Path, cases: int, *args: str) -> tuple[Path, float]:
    (folder / "agent.yaml").write_text(suite(cases))
    (folder / "tools.py").write_text(TOOLS)
    (folder / "bench_agent.py").write_text(AGENT)
    report = folder / "report.html"
    command = [
        str(Path(sys.executable).parent / "holodeck-lsp"), "run", str(folder / "agent.yaml"),
        "--agent", "bench_agent:factory", "--no-user-config", "-q", "-p", "8", "-o", str(report),
        *args,
    ]  # fmt: skip
    start = time.perf_counter()
    subprocess.run(command, check=False, capture_output=True, cwd=ROOT)
    return report, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--opens", type=int, default=5)
    parser.add_argument("--baseline", action="store_true")
    args = parser.parse_args()
    binary = find_chromium()
    with tempfile.TemporaryDirectory() as scratch:
        extra: list[str] = []
        if args.baseline:
            from compare_bench import run as passing_run

            base = passing_run(Path(scratch) / "main", args.cases, (1, 9))  # no turn 9: none wrong
            extra = ["--baseline", str(base)]
            print(f"baseline: {base.stat().st_size / 1e6:.1f} MB, every case passed")
        report, took = make_report(Path(scratch), args.cases, *extra)
        if not report.exists():
            sys.exit("the run wrote no report")
        size = report.stat().st_size
        options = "-o report.html" + (" --baseline" if args.baseline else "")
        print(f"run of {args.cases} cases x 4 turns with {options}: {took:.2f} s")
        print(f"report.html: {size / 1e6:.2f} MB (target < 5 MB)")
        if binary is None:
            sys.exit("chromium not found: install it (apt-get install chromium) or set CHROMIUM")
        times = []
        for _ in range(args.opens):
            with Chromium(binary, timeout=60) as browser:
                times.append(browser.open(report))
                if browser.problems:
                    sys.exit(f"console errors: {browser.problems}")
        print(
            f"Chromium, navigation to load event: median {statistics.median(times):.2f} s, "
            f"fastest {min(times):.2f} s of {args.opens} (target < 2 s)"
        )


if __name__ == "__main__":
    main()
