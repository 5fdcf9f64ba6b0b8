"""`check --format text` against `--format json` on a 5 MB file with 16,000+ errors.

    python -m benchmarks.check_formats [--runs 3]

The text reporter prints each diagnostic with its source line; it must stay linear in
the number of diagnostics. Prints the median wall and CPU time of each format (and
their ratio). Target: text within 2x of json.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from benchmarks.check_timing import command
from tests.support.suites import suite


def erroneous(cases: int) -> str:
    """A suite with three errors in every test case (an unknown key, count 0, a blank input)."""
    text = suite(cases)
    context = "        retrieval_context:"
    text = text.replace(context, "        bogus_key: 1\n" + context)
    text = text.replace("            count: 1", "            count: 0")
    return text.replace("      - input: And in", "      - input: ' '\n        ground_truth: And in")


def measure(argv: list[str], runs: int) -> tuple[float, float, int]:
    """(median wall s, median CPU s, errors reported) of ``runs`` runs."""
    walls, cpus, lines = [], [], 0
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, check=False)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        lines = done.stdout.count(b'"severity": "error"') + done.stdout.count(b": error HL")
    return statistics.median(walls), statistics.median(cpus), lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.agent.yaml"
        path.write_text(erroneous(6000))
        size = path.stat().st_size / 1e6
        results = {}
        for fmt in ("json", "text"):
            argv = [*command("holodeck-lsp"), "check", "--no-user-config", "--format", fmt,
                    str(path)]
            results[fmt] = measure(argv, args.runs)
        errors = results["text"][2]
        assert errors == results["json"][2], "both formats report the same errors"
        print(f"check on a {size:.1f} MB file with {errors:,} errors "
              f"(median of {args.runs}):")
        for fmt, (wall, cpu, _) in results.items():
            print(f"  --format {fmt:<5} {wall:6.2f} s wall, {cpu:6.2f} s CPU")
        ratio = results["text"][1] / results["json"][1]
        print(f"  text / json CPU: {ratio:.2f} (target <= 2)")


if __name__ == "__main__":
    main()
