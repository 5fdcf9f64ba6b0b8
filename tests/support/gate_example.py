"""Makes the runs of examples/gate, the gate's example in docs/compare.md, through the real
command line: main's history (20 runs of the flaky agent kept with `run --history-dir`,
each its own roll of the dice) and a pull request that breaks a turn, run `--repeat 5`.

    python -m tests.support.gate_example

Run it again after a change to what `run` writes; then the docs example's output
(`python -m tests.docs.examples docs/compare.md` shows the difference).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "gate"
MAIN_RUNS = 20
PROGRAM = Path(sys.executable).with_name("holodeck-lsp")


def _run(seed: str, *args: str, change: bool = False) -> None:
    env = {**os.environ, "FLAKY_AGENT_SEED": seed}
    if change:
        env["FLAKY_AGENT_CHANGE"] = "1"
    command = [str(PROGRAM), "run", "agent.yaml", "--agent", "flaky:make_agent"]
    command += ["--no-user-config", "-q", *args]
    done = subprocess.run(command, cwd=EXAMPLE, env=env, check=False)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}")


def main() -> None:
    shutil.rmtree(EXAMPLE / "history", ignore_errors=True)
    for run in range(MAIN_RUNS):
        _run(f"main {run}", "--history-dir", "history")
    _run("pull request", "--repeat", "5", "--no-history", "-o", "pull-request.json", change=True)


if __name__ == "__main__":
    main()
