"""Cold `holodeck-lsp check` wall time and peak memory (median of 5 runs each).

    python benchmarks/check_timing.py

Targets on a 2-core machine: 20-line file <= 0.30 s; 1,000-case 4-turn suite <= 1.5 s;
peak memory <= 300 MB.

Our modules are compiled to bytecode first, as `pip install` leaves them (an editable
install under PYTHONDONTWRITEBYTECODE would otherwise recompile them on every run). Also
printed: the floor, a process that only imports what every `check` must (Python, typer,
pydantic, PyYAML), so the part that is ours can be read off.
"""

from __future__ import annotations

import compileall
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from gen_suite import suite

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


def command() -> list[str]:
    exe = Path(sys.executable).parent / "holodeck-lsp"
    return [str(exe)] if exe.exists() else [shutil.which("holodeck-lsp") or "holodeck-lsp"]


FLOOR = "import typer, yaml; from pydantic import BaseModel"


def measure(argv: list[str], runs: int = 5) -> tuple[float, float, float, float]:
    """(median wall s, fastest wall s, median CPU s, peak RSS MB) of ``runs`` cold runs."""
    times, cpus, peaks = [], [], []
    for _ in range(runs):
        start = time.perf_counter()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(argv, stdout=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        peaks.append(after.ru_maxrss)
    return statistics.median(times), min(times), statistics.median(cpus), max(peaks) / 1024


def check(path: Path) -> list[str]:
    return [*command(), "check", "--no-user-config", "--format", "json", str(path)]


def main() -> None:
    import holodeck_lsp

    compileall.compile_dir(Path(holodeck_lsp.__file__).parent, quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        small = Path(tmp) / "small" / "agent.yaml"
        small.parent.mkdir()
        small.write_text(SMALL)
        large = Path(tmp) / "large" / "agent.yaml"
        large.parent.mkdir()
        large.write_text(suite(1000))
        lines = large.read_text().count("\n")
        floor, floor_min, _, _ = measure([sys.executable, "-c", FLOOR])
        t_small, min_small, c_small, m_small = measure(check(small))
        t_large, min_large, c_large, m_large = measure(check(large))
    # CPU time and the fastest run are printed too: wall time on a shared machine also
    # measures the neighbours.
    print(f"floor (Python + typer + pydantic + PyYAML imports only): median {floor:.3f} s, "
          f"fastest {floor_min:.3f} s")
    print(f"check, 20-line file: median {t_small:.3f} s wall (fastest {min_small:.3f} s), "
          f"{c_small:.3f} s CPU (target <= 0.30 s)")
    print(f"check, 1,000-case 4-turn suite ({lines} lines): median {t_large:.3f} s wall "
          f"(fastest {min_large:.3f} s), {c_large:.3f} s CPU (target <= 1.5 s)")
    print(f"peak memory (max RSS of any run): {max(m_small, m_large):.0f} MB "
          "(target <= 300 MB)")


if __name__ == "__main__":
    main()
