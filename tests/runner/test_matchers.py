"""Tool assertions, row by row of the contract (SPEC §7)."""

from __future__ import annotations

from typing import Any

import pytest

from holodeck_lsp.models.test_case import ExpectedTool
from holodeck_lsp.models.test_result import ToolInvocation
from holodeck_lsp.runner.tool_assertions import check_tools


def call(name: str, **args: Any) -> ToolInvocation:
    return ToolInvocation(name=name, args=args)


def verdict(spec: Any, actual: Any) -> bool:
    expected = ExpectedTool.model_validate({"name": "calc", "args": {"a": spec}})
    matched, _ = check_tools([expected], [call("calc", a=actual)])
    assert matched is not None
    return matched


ROWS = [
    # literal: numbers by value, bools strictly, containers element-wise, strings exactly
    ("int equals float", 206588, 206588.0, True),
    ("float equals int", 181001.0, 181001, True),
    ("different numbers", 206588, 206589, False),
    ("number is not its string", 206588, "206588", False),
    ("true is not 1", True, 1, False),
    ("1 is not true", 1, True, False),
    ("false is not 0.0", False, 0.0, False),
    ("bool equals bool", True, True, True),
    ("list element-wise numeric", [1, 2.0], [1.0, 2], True),
    ("list order matters", [1, 2], [2, 1], False),
    ("list length matters", [1, 2], [1, 2, 3], False),
    ("list keeps bool strictness", [True], [1], False),
    ("dict element-wise numeric", {"x": 1, "y": [2]}, {"y": [2.0], "x": 1.0}, True),
    ("dict keys must agree", {"x": 1}, {"x": 1, "z": 2}, False),
    ("string exact", "operating cash", "operating cash", True),
    ("string case matters", "operating cash", "Operating cash", False),
    ("string whitespace matters", "operating cash", "operating  cash", False),
    ("null equals null", None, None, True),
    # fuzzy: case, whitespace, separators, numbers, percent
    ("fuzzy thousands comma", {"fuzzy": "206588"}, "206,588", True),
    ("fuzzy underscore", {"fuzzy": "206588"}, "206_588", True),
    ("fuzzy narrow no-break space", {"fuzzy": "206588"}, "206\u202f588", True),
    ("fuzzy number vs float", {"fuzzy": "206588"}, 206588.0, True),
    ("fuzzy decimal spelling", {"fuzzy": "206588.00"}, "206,588", True),
    ("fuzzy percent", {"fuzzy": "33.2%"}, 0.332, True),
    ("fuzzy percent both sides", {"fuzzy": "14.3%"}, "14.3 %", True),
    ("fuzzy percent is not the bare number", {"fuzzy": "33.2%"}, 33.2, False),
    ("fuzzy case", {"fuzzy": "Operating Cash"}, "operating cash", True),
    ("fuzzy whitespace", {"fuzzy": "operating cash"}, "  operating \t\n cash ", True),
    ("fuzzy different words", {"fuzzy": "operating cash"}, "investing cash", False),
    ("fuzzy different numbers", {"fuzzy": "206588"}, "206589", False),
    ("fuzzy bool spelled", {"fuzzy": "TRUE"}, True, True),
    # regex: full match of str(actual)
    ("regex full match", {"regex": "20(09|10)"}, "2009", True),
    ("regex anchored: no partial match", {"regex": "2009"}, "fy2009", False),
    ("regex anchored: no prefix match", {"regex": "2009"}, "20091", False),
    ("regex explicit anchors", {"regex": "^2009.*cash.*$"}, "2009 operating cash flow", True),
    ("regex against a number", {"regex": r"206588(\.0)?"}, 206588.0, True),
    ("regex against a bool", {"regex": "True"}, True, True),
]


@pytest.mark.parametrize(
    ("spec", "actual", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS]
)
def test_matcher_row(spec: Any, actual: Any, expected: bool) -> None:
    assert verdict(spec, actual) is expected


def details(expected: list[Any], calls: list[ToolInvocation]) -> tuple[bool | None, Any]:
    parsed = [e if isinstance(e, str) else ExpectedTool.model_validate(e) for e in expected]
    return check_tools(parsed, calls)


def test_a_missing_argument_is_named() -> None:
    assert details([{"name": "subtract", "args": {"a": 1, "b": 2}}], [call("subtract", a=1)]) == (
        False,
        [
            {
                "tool": "subtract",
                "args_asserted": {"a": 1, "b": 2},
                "matched_call_index": None,
                "unmatched_reason": "expected at least 1 matching call of 'subtract', found 0: "
                "call 0 (subtract): missing argument 'b'",
            }
        ],
    )


def test_unasserted_arguments_are_ignored() -> None:
    matched, _ = details(
        [{"name": "subtract", "args": {"a": 1}}], [call("subtract", a=1, b=2, note="x")]
    )
    assert matched is True


def test_one_single_call_must_satisfy_every_asserted_argument() -> None:
    calls = [call("subtract", a=1, b=0), call("subtract", a=0, b=2)]
    assert details([{"name": "subtract", "args": {"a": 1, "b": 2}}], calls) == (
        False,
        [
            {
                "tool": "subtract",
                "args_asserted": {"a": 1, "b": 2},
                "matched_call_index": None,
                "unmatched_reason": "expected at least 1 matching call of 'subtract', found 0: "
                "call 0 (subtract): argument 'b': expected 2, got 0; "
                "call 1 (subtract): argument 'a': expected 1, got 0",
            }
        ],
    )


def test_the_matching_call_is_reported_by_index_among_several() -> None:
    calls = [call("lookup", item="debt"), call("subtract", a=5, b=3), call("lookup", item="cash")]
    assert details([{"name": "lookup", "args": {"item": "cash"}}], calls) == (
        True,
        [
            {
                "tool": "lookup",
                "args_asserted": {"item": "cash"},
                "matched_call_index": 2,
                "unmatched_reason": None,
            }
        ],
    )


def test_names_match_as_case_sensitive_substrings() -> None:
    calls = [call("finance_lookup_v2")]
    assert details(["lookup"], calls)[0] is True
    assert details(["Lookup"], calls) == (
        False,
        [
            {
                "tool": "Lookup",
                "args_asserted": None,
                "matched_call_index": None,
                "unmatched_reason": "no call of a tool whose name contains 'Lookup' "
                "(calls: finance_lookup_v2)",
            }
        ],
    )


def test_count_is_a_lower_bound_over_matching_calls() -> None:
    calls = [call("lookup", item="cash"), call("lookup", item="debt"), call("lookup", item="cash")]
    assert details([{"name": "lookup", "count": 2, "args": {"item": "cash"}}], calls)[0] is True
    assert details([{"name": "lookup", "count": 3}], calls)[0] is True
    assert details([{"name": "lookup", "count": 3, "args": {"item": "cash"}}], calls) == (
        False,
        [
            {
                "tool": "lookup",
                "args_asserted": {"item": "cash"},
                "matched_call_index": None,
                "unmatched_reason": "expected at least 3 matching calls of 'lookup', found 2: "
                "call 1 (lookup): argument 'item': expected 'cash', got 'debt'",
            }
        ],
    )


def test_no_assertions_means_tools_matched_is_none() -> None:
    assert check_tools(None, [call("lookup")]) == (None, None)
    assert check_tools([], []) == (None, None)


def test_every_assertion_must_hold() -> None:
    matched, records = details(["lookup", "divide"], [call("lookup")])
    assert matched is False
    assert [r["unmatched_reason"] is None for r in records] == [True, False]
