"""The test suite's own switch: a run whose `-m` selects the slow tests (the slow suite)
also runs every property test, with Hypothesis's thorough profile (tests/conftest.py)."""

from __future__ import annotations

import hypothesis
import pytest

from tests.conftest import selects_slow


@pytest.mark.parametrize(
    ("markexpr", "slow"),
    [
        ("slow", True),
        ("slow or docs", True),
        ("(slow)", True),
        ("not slow", False),
        ("not slow and not docs", False),
        ("", False),
        ("slowly", False),
    ],
)
def test_a_run_is_slow_when_its_marker_expression_selects_slow_tests(
    markexpr: str, slow: bool
) -> None:
    assert selects_slow(markexpr) is slow


def test_the_fast_suite_tries_a_few_dozen_examples_and_the_slow_one_hundreds() -> None:
    assert hypothesis.settings.get_profile("fast").max_examples == 30
    assert hypothesis.settings.get_profile("thorough").max_examples == 300
