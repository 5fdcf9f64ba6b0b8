"""HL406's own analysis is bounded in total work (issue 29 item 1): the analysis that warns
about a regex that hangs must not hang `check` in public CI, or the server's worker, on a
short regex. Bounded repeats nested in bounded repeats around something that reads no
character (`(?:(?:(?:(?:){8}){8}){8}){8}`, with `^`, `\\b` or a lookaround in place of the
empty group) once made it exponential: such a repeat is now built once. And every item
visited, every route counted, every edge and pair of positions walked spends from one
budget (`MAX_WORK` steps); past it the pattern gets no warning.

The budget is checked in steps, not in seconds: each analysis runs under a tracer that
counts the lines of the analysis module it executes, which must stay within a fixed
number per step the analysis counted, so no loop can run without spending from the
budget. `python -m benchmarks.regex_analysis` prints the times.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from holodeck_lsp.validation.lints import backtracking
from holodeck_lsp.validation.lints.backtracking import MAX_WORK, Analysis, analyse
from holodeck_lsp.validation.lints.matchers import BACKTRACKING
from tests.runner.helpers import invoke, write
from tests.security.regex_grammar import ADVERSARIAL, ZERO_WIDTH, hostile_pattern, nested
from tests.security.test_regex_backtracking import LOOKUPS

# Lines of the analysis module run per step it counts: the most the fuzz corpus and the
# adversarial families need is under 30 (a step is a few lines: a dict update, a check).
LINES_PER_STEP = 40
ANALYSIS_MODULE = backtracking.__file__


class _Unbounded(Exception):
    """More lines ran than the budget allows: a loop that does not spend from it."""


def _counted(pattern: str) -> tuple[Analysis, int]:
    """The analysis of ``pattern`` and the lines of the analysis module it ran (stopped
    past what `MAX_WORK` allows)."""
    ceiling = LINES_PER_STEP * MAX_WORK
    lines = 0

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal lines
        if frame.f_code.co_filename != ANALYSIS_MODULE:
            return None  # `re`'s parser: bounded by the pattern's length, counted as such
        lines += 1
        if lines > ceiling:
            raise _Unbounded(pattern)
        return trace

    before = sys.gettrace()
    sys.settrace(trace)
    try:
        analysis = analyse(pattern)
    finally:
        sys.settrace(before)
    return analysis, lines


def _assert_within_budget(pattern: str) -> Analysis:
    analysis, lines = _counted(pattern)
    assert analysis.work <= MAX_WORK, pattern
    assert lines <= LINES_PER_STEP * max(analysis.work, 1), (pattern, lines, analysis.work)
    if not analysis.complete:  # past the budget (or a construct not modelled): no warning
        assert not analysis.exponential
    return analysis


@given(st.randoms(use_true_random=False))
def test_every_generated_pattern_is_analysed_within_its_budget(rng: random.Random) -> None:
    pattern = hostile_pattern(rng)
    re.compile(pattern)
    _assert_within_budget(pattern)


@pytest.mark.parametrize("pattern", list(ADVERSARIAL.values()), ids=list(ADVERSARIAL))
def test_each_adversarial_family_is_analysed_within_its_budget(pattern: str) -> None:
    _assert_within_budget(pattern)


@pytest.mark.parametrize("core", ["", *ZERO_WIDTH])
def test_repeats_of_what_reads_nothing_are_built_once(core: str) -> None:
    # Depth 12: 8**12 copies written out; built once, a few hundred steps, and whatever
    # follows is still analysed.
    pattern = nested(core, 12)
    quiet = _assert_within_budget(pattern)
    loud = _assert_within_budget(pattern + "(a+)+b")
    assert (quiet.complete, quiet.exponential, quiet.work < 1_000) == (True, False, True)
    assert (loud.complete, loud.exponential) == (True, True)


def test_past_the_budget_the_answer_is_no_warning() -> None:
    assert analyse("(a+)+b").exponential
    assert [(a.exponential, a.complete, a.work) for a in [analyse("(a+)+b", steps=30)]] == [
        (False, False, 30)
    ]
    # 250 optional characters before the loop: their routes (quadratic in number) spend
    # the whole budget before the loop is reached.
    crowded = analyse("a?" * 250 + "(a+)+b")
    assert (crowded.exponential, crowded.complete, crowded.work) == (False, False, MAX_WORK)


TOOLS = "def lookup(**kwargs):\n    return 1\n"


def test_check_answers_at_once_on_nested_repeats_and_still_warns_after_them(
    tmp_path: Path,
) -> None:
    # Each of these took days to analyse; the last hides the known exponential pattern
    # behind them.
    patterns = [nested(core, 12) for core in ["", "^", r"\b", "(?=a)"]]
    patterns.append(nested("$", 12) + "(a|a)*c")
    args = "".join(f"          q{i}: {{regex: '{p}'}}\n" for i, p in enumerate(patterns))
    path = write(tmp_path, {"agent.yaml": LOOKUPS + args, "tools.py": TOOLS})
    code, out, _ = invoke("check", path, "--format", "github")
    where = 'test case "lookups": test_cases[0].expected_tools[0].args.q4.regex'
    line = path.read_text().splitlines().index(f"          q4: {{regex: '{patterns[-1]}'}}") + 1
    end = 23 + len(patterns[-1]) + 2  # the quoted pattern, from column 23
    assert (code, out.splitlines()) == (0, [
        f"::warning file={path},line={line},col=23,endLine={line},endColumn={end},"
        f"title=HL406 regex-backtracking::{BACKTRACKING} ({where})"
    ])
