"""Suites generated at any size, for tests and benchmarks alike (benchmarks import them
from here: `python -m benchmarks.NAME`). One writer of numbered test cases, and the
suites built on it."""

from __future__ import annotations

from collections.abc import Callable


def numbered_cases(
    cases: int, turns: int, turn: Callable[[int, int], str], name: str = "case {}"
) -> str:
    """The items of `test_cases:`: ``cases`` test cases named ``name.format(case)``, each of
    ``turns`` turns whose keys ``turn(case, turn)`` writes, flush left."""
    out = []
    for c in range(cases):
        out.append(f"  - name: {name.format(c)}\n    turns:\n")
        for t in range(turns):
            first, *rest = turn(c, t).splitlines()
            out.append(f"      - {first}\n" + "".join(f"        {line}\n" for line in rest))
    return "".join(out)


SUITE_HEAD = """name: benchmark-suite
model:
  provider: openai
  name: gpt-4o-mini
instructions:
  inline: Answer using the tools.
tools:
  - name: lookup
    type: function
    description: Look up a value.
    file: tools.py
    function: lookup
  - name: subtract
    type: function
    description: Subtract b from a.
    file: tools.py
    function: subtract
evaluations:
  metrics:
    - type: standard
      metric: numeric
      absolute_tolerance: 0.01
test_cases:
"""


def _cash_turn(case: int, turn: int, year: int) -> str:
    a, b = 200000 + case, 180000 + 3 * case
    next_year = year + 1
    return [
        f'input: What was the operating cash in {year}?\nground_truth: "{a}"\n'
        "expected_tools:\n  - name: lookup\n    args:\n"
        f'      row: {{fuzzy: "Operating Cash"}}\n      year: {year}\n',
        f'input: And in {next_year}?\nground_truth: "{b}"\n'
        "expected_tools:\n  - name: lookup\n    args:\n"
        f'      year: {{regex: "^{next_year}$"}}\n',
        f'input: What is the difference?\nground_truth: "{b - a}"\n'
        "expected_tools:\n  - name: subtract\n    count: 1\n    args:\n"
        f"      a: {b}\n      b: {a}.0\n"
        "evaluations:\n  - metric: equality\n    strip_whitespace: true\n",
        "input: Summarise the change in one sentence.\n"
        f"retrieval_context:\n  - Operating cash moved from {a} to {b}.\n",
    ][turn]


def suite(cases: int, first_year: int | None = None) -> str:
    """A valid agent with ``cases`` 4-turn test cases: tool calls asserted with literal,
    fuzzy and regex arguments, a metric of the agent and one of a turn, a retrieval
    context. Case i asks about the year 2000 + i % 20, or ``first_year`` + i (every case
    a year of its own). `python -m tests.support.suites N` prints it."""

    def year(case: int) -> int:
        return 2000 + case % 20 if first_year is None else first_year + case

    return SUITE_HEAD + numbered_cases(cases, 4, lambda c, t: _cash_turn(c, t, year(c)))


ANSWER_TURNS = 4  # the turns of each test case of answer_suite


def answer_suite(cases: int, model: str, evaluation: str, execution: str | None = None) -> str:
    """An agent (``model``, a flow mapping) with ``cases`` test cases of ANSWER_TURNS turns
    whose every turn expects the answer 42 and is scored by ``evaluation``."""
    head = f"name: bench\nmodel: {model}\ninstructions: {{inline: Answer 42.}}\n"
    if execution is not None:
        head += f"execution: {execution}\n"
    return head + "test_cases:\n" + numbered_cases(
        cases, ANSWER_TURNS, lambda c, t: f"input: 'case {c} turn {t}'\nground_truth: '42'\n"
                               f"evaluations: [{evaluation}]\n")


def alias_bomb(levels: int = 9) -> str:
    """A "billion laughs" block: each level lists the one before ten times by alias."""
    lines = ["l0: &l0 [h, h, h, h, h, h, h, h, h, h]"]
    for i in range(1, levels):
        lines.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]")
    return "\n".join(lines) + "\n"


def crowded_suite(characters: int) -> str:
    """A valid agent of about ``characters`` characters whose test cases are as small as a
    case can be (`- input: qN`, a line each): the most cases, and so the most work to
    validate, that a document of its size can hold (not on numbered_cases, whose cases
    have names and turns)."""
    lines = [SUITE_HEAD]
    size = len(SUITE_HEAD)
    while True:
        line = f"  - input: q{len(lines)}\n"
        if size + len(line) > characters:
            return "".join(lines)
        lines.append(line)
        size += len(line)


def small_agent(name: str) -> str:
    """A valid agent with one test case (``hello``), eight lines."""
    return (f"name: {name}\nmodel:\n  provider: openai\n  name: gpt-4o\ninstructions:\n"
            "  inline: Answer briefly.\ntest_cases:\n  - input: hello\n")


if __name__ == "__main__":
    import sys

    sys.stdout.write(suite(int(sys.argv[1]) if len(sys.argv) > 1 else 100))
