"""Each turn's passes and attempts over the attempts of a history's runs, counted fast: the
"pool the runs" row of `python -m benchmarks.gate_bench` (200 runs of 4,000 turns).

An attempt is one letter per turn (`p` passed, `f` failed, `s` skipped: `history/`'s
records). Attempts of one length are joined and each turn's letters counted by a strided
slice, so the counting is done by the string methods rather than a Python loop over every
letter (800,000 of them there).
"""

from __future__ import annotations

from holodeck_lsp.history.run_records import PASSED


def count_turns(turns: dict[int, list[int]], attempts: list[str]) -> None:
    """Add each turn's [passes, attempts] over ``attempts`` to ``turns`` (by turn index)."""
    lengths = set(map(len, attempts))
    groups = (
        [attempts]
        if len(lengths) == 1
        else [[a for a in attempts if len(a) == length] for length in lengths]
    )
    for group in groups:
        length = len(group[0])
        joined = "".join(group)
        for turn in range(length):
            counts = turns.setdefault(turn, [0, 0])
            counts[0] += joined[turn::length].count(PASSED)
            counts[1] += len(group)
