"""HL406's verdict on each regex pattern, remembered: a suite asks about the same few
patterns once per test case, and each analysis (`backtracking.py`) costs up to its budget.

A hack (CONTRIBUTING, "Performance hacks"). Benchmark row: `check`, 1,000-case suite,
cold. Off (`HOLODECK_LSP_WITHOUT=regex-verdicts`): each pattern is analysed where it stands.
"""

from __future__ import annotations

from functools import lru_cache

from holodeck_lsp.hack_switches import hack_on
from holodeck_lsp.validation.lints.backtracking import backtracks_exponentially

_remembered = lru_cache(maxsize=1024)(backtracks_exponentially)


def backtracks(pattern: str) -> bool:
    """Whether ``pattern`` (which compiles) can take exponential time in `re`."""
    if hack_on("regex-verdicts"):
        return _remembered(pattern)
    return backtracks_exponentially(pattern)
