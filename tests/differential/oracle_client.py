"""Run the oracle (``oracle_verdict.py`` inside the oracle venv) and read its verdicts."""

from __future__ import annotations

import json
import subprocess
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

VERDICT_SCRIPT = Path(__file__).with_name("oracle_verdict.py")


class OracleRunError(RuntimeError):
    """The oracle process failed instead of producing verdicts."""


@dataclass(frozen=True)
class Verdict:
    """Whether HoloDeck 0.7.1 loads one file, and why not."""

    file: Path
    accepted: bool
    error: str | None
    warnings: tuple[str, ...] = ()


def run_oracle(
    python: Path, files: Iterable[Path], *, timeout_per_file: float = 30.0
) -> dict[Path, Verdict]:
    """Judge every file in one oracle run; keyed by the absolute path of each file."""
    paths = [Path(f).resolve() for f in files]
    if not paths:
        return {}
    with tempfile.NamedTemporaryFile("w", suffix=".txt", encoding="utf-8") as listing:
        listing.write("".join(f"{p}\n" for p in paths))
        listing.flush()
        done = subprocess.run(
            [
                str(python),
                str(VERDICT_SCRIPT),
                "--timeout",
                str(timeout_per_file),
                "--files-from",
                listing.name,
            ],
            capture_output=True,
            text=True,
            check=False,
            timeout=60 + timeout_per_file * len(paths),
        )
    if done.returncode != 0:
        raise OracleRunError(f"oracle exited {done.returncode}:\n{done.stderr[-4000:]}")
    verdicts: dict[Path, Verdict] = {}
    # One verdict a line, split on "\n" only: an error message may quote U+2028 or U+0085,
    # which str.splitlines() would also break on.
    for line in filter(None, done.stdout.split("\n")):
        raw = json.loads(line)
        file = Path(raw["file"])
        verdicts[file] = Verdict(
            file=file,
            accepted=bool(raw["accepted"]),
            error=raw.get("error"),
            warnings=tuple(raw.get("warnings") or ()),
        )
    missing = [p for p in paths if p not in verdicts]
    if missing:
        raise OracleRunError(f"no verdict for {missing}:\n{done.stderr[-4000:]}")
    return verdicts
