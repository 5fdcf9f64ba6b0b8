"""Cold `holodeck-lsp check` wall time and peak memory, beside check-jsonschema.

    python -m benchmarks.check_timing [--runs 5] [--baseline DIR] [--without HACK]

Each file is checked by `holodeck-lsp check` and by check-jsonschema with HoloDeck's
published schema (`tests/data/reference/`; `pip install check-jsonschema`), alternated
(ours, theirs, ours, ...) so that the machine's other load hits both; medians, the
fastest run and the ratio are printed. Targets on a 2-core machine: 20-line file <= 0.30 s
and <= 0.6x check-jsonschema; 1,000-case 4-turn suite <= 1.5 s and <= 0.10x
check-jsonschema; peak memory <= 300 MB. `--baseline DIR` also times the `check` of
another checkout (say, main before a change) in the same alternation, and `--without
HACK` (repeatable; a name of `holodeck_lsp/hack_switches.py`) this one with that hack off.

Our modules are compiled to bytecode first, as `pip install` leaves them (an editable
install under PYTHONDONTWRITEBYTECODE would otherwise recompile them on every run). Also
printed: the floor, a process that only imports what every `check` must (Python, typer,
pydantic, PyYAML), so the part that is ours can be read off.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.checkouts import entry_command
from holodeck_lsp.hack_switches import VARIABLE
from tests.support.suites import suite

HOLODECK_SCHEMA = Path(__file__).resolve().parent.parent / (
    "tests/data/reference/holodeck-agent.schema.json")

SMALL = """name: small
model:
  provider: openai
  name: gpt-4o
instructions:
  inline: Be brief.
test_cases:
  - name: greeting
    turns:
      - input: Hello
        ground_truth: Hi
        expected_tools:
          - name: search
            args:
              q: {regex: "^hello$"}
      - input: Bye
        evaluations:
          - metric: equality
            case_insensitive: true
"""


def command(name: str) -> list[str]:
    exe = Path(sys.executable).parent / name
    return [str(exe)] if exe.exists() else [shutil.which(name) or name]


FLOOR = "import typer, yaml; from pydantic import BaseModel"


@dataclass
class Runs:
    times: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    peaks: list[float] = field(default_factory=list)

    def once(self, argv: list[str], env: dict[str, str] | None = None) -> None:
        """One cold run: its wall time, CPU time and peak RSS."""
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   env={**os.environ, **(env or {})})
        _, status, usage = os.wait4(process.pid, 0)  # this child's own usage
        self.times.append(time.perf_counter() - start)
        process.returncode = os.waitstatus_to_exitcode(status)
        self.cpus.append(usage.ru_utime + usage.ru_stime)
        self.peaks.append(usage.ru_maxrss / 1024)  # MB

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    def line(self, name: str) -> str:
        return (f"    {name:<18} median {self.median:6.3f} s wall (fastest "
                f"{min(self.times):.3f} s), {statistics.median(self.cpus):.3f} s CPU")


def check(path: Path, program: list[str] | None = None) -> list[str]:
    return [*(program or command("holodeck-lsp")), "check", "--no-user-config", "--format",
            "json", str(path)]


def check_jsonschema(path: Path) -> list[str] | None:
    found = command("check-jsonschema")
    if shutil.which(found[0]) is None:
        return None
    return [*found, "--schemafile", str(HOLODECK_SCHEMA), str(path)]


Contender = tuple[list[str] | None, dict[str, str]]  # a `holodeck-lsp` and its environment


def compare(label: str, path: Path, runs: int, target: float, ratio_target: float,
            others: dict[str, Contender]) -> float:
    """Ours (and the others': a baseline, this checkout without a hack) and
    check-jsonschema on one file, alternated; prints them all; our peak RSS."""
    timed = {name: Runs() for name in ["holodeck-lsp", *others]}
    theirs = Runs()
    anchor = check_jsonschema(path)
    for _ in range(runs):
        timed["holodeck-lsp"].once(check(path))
        for name, (program, env) in others.items():
            timed[name].once(check(path, program), env)
        if anchor is not None:
            theirs.once(anchor)
    ours = timed["holodeck-lsp"]
    print(f"{label}:")
    print(ours.line("holodeck-lsp") + f" (target <= {target:.2f} s)")
    for name in others:
        print(timed[name].line(name) + f" ({timed[name].median / ours.median:.2f}x)")
    if anchor is None:
        print("    check-jsonschema is not installed: pip install check-jsonschema")
        return max(ours.peaks)
    print(theirs.line("check-jsonschema"))
    for name, each in timed.items():
        print(f"    {name} / check-jsonschema: ratio of the medians "
              f"{each.median / theirs.median:.2f}, of the fastest "
              f"{min(each.times) / min(theirs.times):.2f} (target <= {ratio_target:.2f})")
    return max(ours.peaks)


def main() -> None:
    import holodeck_lsp

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", type=Path, help="a checkout to time beside this one")
    parser.add_argument("--without", action="append", default=[], metavar="HACK",
                        help="time this checkout with the hack off as well")
    args = parser.parse_args()
    compileall.compile_dir(Path(holodeck_lsp.__file__).parent, quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        small = Path(tmp) / "small" / "agent.yaml"
        small.parent.mkdir()
        small.write_text(SMALL)
        large = Path(tmp) / "large" / "agent.yaml"
        large.parent.mkdir()
        large.write_text(suite(1000))
        lines = large.read_text().count("\n")
        floor = Runs()
        for _ in range(args.runs):
            floor.once([sys.executable, "-c", FLOOR])
        # CPU time and the fastest run are printed too: wall time on a shared machine also
        # measures the neighbours.
        print(f"floor (Python + typer + pydantic + PyYAML imports only): median "
              f"{floor.median:.3f} s, fastest {min(floor.times):.3f} s")
        others: dict[str, Contender] = {}
        if args.baseline is not None:
            compileall.compile_dir(args.baseline / "holodeck_lsp", quiet=1)
            others["baseline"] = entry_command(args.baseline, Path(tmp))
        for hack in args.without:
            others[f"without {hack}"] = (None, {VARIABLE: hack})
        peak = compare("check, 20-line file", small, args.runs, 0.30, 0.6, others)
        peak = max(peak, compare(f"check, 1,000-case 4-turn suite ({lines} lines)", large,
                                 args.runs, 1.5, 0.10, others))
    print(f"peak memory of holodeck-lsp (max RSS of any run): {peak:.0f} MB (target <= 300 MB)")


if __name__ == "__main__":
    main()
