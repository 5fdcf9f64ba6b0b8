"""Judge mutants with HoloDeck 0.7.1 and with ``holodeck-lsp check``; list where they differ.

    python -m tests.differential.mutation_campaign --seed 3 --count 2000 [--keep DIR]

Used by ``test_mutations.py`` for a fixed, small set, and by hand for large runs.
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tests.differential.check_runner import CheckResult, check_all
from tests.differential.differential_inputs import REPO
from tests.differential.mutations import Mutant, generate
from tests.differential.oracle_client import Verdict, run_oracle
from tests.differential.oracle_env import ensure_oracle_env


@dataclass(frozen=True)
class Disagreement:
    mutant: Mutant
    theirs: Verdict
    ours: CheckResult
    twin: Verdict | None  # HoloDeck on the mutant with its new `${VAR}` values put back

    @property
    def kind(self) -> str:
        if self.ours.problem is not None:
            return "check-failed"
        return "false-positive" if self.ours.has_error else "false-negative"

    @property
    def excused(self) -> str | None:
        """Why this difference is deliberate, or None when it is a bug."""
        if self.kind != "false-negative":
            return None
        if self.twin is not None and self.twin.accepted:
            return "a ${VAR} reference is never an error in check"
        grader_warned = any(f.code == "HL502" for f in self.ours.findings)
        if grader_warned and "cannot import grader module" in (self.theirs.error or ""):
            # Checked alone, a test-case file cannot know its agent's folder (where HoloDeck
            # looks for grader modules), so a module not found is only a warning there.
            return "grader module not found from a standalone test-case file"
        return None

    def render(self) -> str:
        holodeck = "accepts" if self.theirs.accepted else f"REJECTS: {self.theirs.error}"
        lines = [
            f"{self.mutant.ident} [{self.kind}] {self.mutant.file}",
            f"  seed: {self.mutant.seed} (mutated {self.mutant.mutated})",
            *(f"  mutation: {m}" for m in self.mutant.mutations),
            "  HoloDeck 0.7.1 " + holodeck.replace("\n", "\n    "),
        ]
        if self.twin is not None:
            verdict = "accepts" if self.twin.accepted else f"rejects: {self.twin.error}"
            lines.append(f"  with the new ${{VAR}} values put back, HoloDeck {verdict}")
        if self.ours.problem:
            lines.append(f"  holodeck-lsp run failed: {self.ours.problem}")
        findings = self.ours.findings
        lines.append(f"  holodeck-lsp: {sum(f.severity == 'error' for f in findings)} error(s)")
        lines += [f"    {f.render()}" for f in findings]
        return "\n".join(lines)


def judge(
    mutants: list[Mutant], oracle_python: Path, tally: collections.Counter[str] | None = None
) -> list[Disagreement]:
    """Every mutant on which ``check`` and HoloDeck disagree (``tally`` counts verdicts)."""
    files = [m.file for m in mutants]
    twins = [m.env_twin for m in mutants if m.env_twin is not None]
    theirs = run_oracle(oracle_python, files + twins)
    ours = check_all(files, cwd=REPO)
    if tally is not None:
        tally.update("accepted" if theirs[f].accepted else "rejected" for f in files)
    return [
        Disagreement(m, theirs[m.file], ours[m.file], theirs[m.env_twin] if m.env_twin else None)
        for m in mutants
        if ours[m.file].problem is not None or ours[m.file].has_error == theirs[m.file].accepted
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="differential mutation campaign")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--keep", type=Path, help="write the mutants here (kept afterwards)")
    parser.add_argument("--batch", type=int, default=500)
    args = parser.parse_args(argv)
    python = ensure_oracle_env()
    with tempfile.TemporaryDirectory(prefix="holodeck-mutants-") as scratch:
        out = args.keep or Path(scratch)
        started = time.monotonic()
        mutants = generate(args.seed, args.count, out)
        found: list[Disagreement] = []
        tally: collections.Counter[str] = collections.Counter()
        for start in range(0, len(mutants), args.batch):
            found += judge(mutants[start : start + args.batch], python, tally)
        elapsed = time.monotonic() - started
        for d in found:
            print(d.render() + (f"\n  (excused: {d.excused})" if d.excused else "") + "\n")
        kinds = collections.Counter(
            f"{d.kind}{' (excused)' if d.excused else ''}: {'+'.join(d.mutant.kinds)}"
            for d in found
        )
        for kind, n in sorted(kinds.items()):
            print(f"{n:5d}  {kind}")
        bugs = sum(d.excused is None for d in found)
        print(f"HoloDeck accepted {tally['accepted']}, rejected {tally['rejected']}")
        print(
            f"{len(mutants)} mutants, {len(found)} disagreements ({bugs} not excused), "
            f"{elapsed:.0f}s",
            file=sys.stderr,
        )
    return 1 if bugs else 0


if __name__ == "__main__":
    raise SystemExit(main())
