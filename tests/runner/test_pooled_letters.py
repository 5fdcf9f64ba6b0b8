"""A history's turns counted by strided slices give what counting every letter gives,
attempts of different lengths (a case that gained a turn) included."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from holodeck_lsp.runner.report.comparison.pooled_letters import count_turns

attempt = st.text(alphabet="pfs", min_size=1, max_size=6)


@given(st.lists(attempt, min_size=1, max_size=40))
def test_the_same_as_counting_every_letter(attempts: list[str]) -> None:
    expected: dict[int, list[int]] = {}
    for letters in attempts:
        for turn, letter in enumerate(letters):
            counts = expected.setdefault(turn, [0, 0])
            counts[0] += letter == "p"
            counts[1] += 1
    counted: dict[int, list[int]] = {}
    count_turns(counted, attempts)
    assert counted == expected


def test_counts_add_to_those_already_there() -> None:
    turns = {0: [3, 4]}
    count_turns(turns, ["pf", "ps"])
    assert turns == {0: [5, 6], 1: [0, 2]}
