"""Tool assertions, row by row of the contract (docs/runner.md, "Assertions and metrics")."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest

from holodeck_lsp.models.test_case import ExpectedTool
from holodeck_lsp.models.test_result import ToolInvocation
from holodeck_lsp.runner.score import tool_assertions
from holodeck_lsp.runner.score.tool_assertions import expected_as_json, turn_regex_pairs
from holodeck_lsp.runner.score.turn_scores import Check, ToolVerdict


def scored(
    expected: list[str | ExpectedTool] | None, calls: list[ToolInvocation], name_errors: bool = True
) -> ToolVerdict:
    """The turn's verdict, its regexes judged by `re` here (the run judges them in a child
    process under a time limit: tests/security/test_regex_limits.py)."""
    regexes = {(p, t): re.fullmatch(p, t) is not None for p, t in turn_regex_pairs(expected, calls)}
    return tool_assertions.check_tools(
        expected, calls, regexes, ("test_cases", 0), name_errors=name_errors
    )


def check_tools(
    expected: list[str | ExpectedTool] | None, calls: list[ToolInvocation], name_errors: bool = True
) -> ToolVerdict:
    """The verdict as `TurnResult` has it (`matched`, `details`, error lines)."""
    return replace(scored(expected, calls, name_errors), checks=())


def call(name: str, **args: Any) -> ToolInvocation:
    return ToolInvocation(name=name, args=args)


def verdict(spec: Any, actual: Any) -> bool:
    expected = ExpectedTool.model_validate({"name": "calc", "args": {"a": spec}})
    matched = check_tools([expected], [call("calc", a=actual)]).matched
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
    ("null is not the empty string", None, "", False),
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
    ("fuzzy spaces inside a number", {"fuzzy": "-25 587"}, -25587, True),
    ("fuzzy space-grouped thousands", {"fuzzy": "1 000"}, "1000", True),
    ("fuzzy numbers within 1e-9", {"fuzzy": "0.1"}, 0.1 + 1e-12, True),
    ("fuzzy absolute, not relative, tolerance", {"fuzzy": "1e12"}, 1e12 + 1, False),
    ("fuzzy nan is a word", {"fuzzy": "NaN"}, "nan", True),
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


def verdict_of(expected: list[Any], calls: list[ToolInvocation]) -> ToolVerdict:
    parsed = [e if isinstance(e, str) else ExpectedTool.model_validate(e) for e in expected]
    return check_tools(parsed, calls)


def test_a_missing_argument_is_named() -> None:
    verdict = verdict_of([{"name": "subtract", "args": {"a": 1, "b": 2}}], [call("subtract", a=1)])
    assert verdict == ToolVerdict(
        False,
        [
            {
                "expected_tool": "subtract",
                "args_asserted": {"a": 1, "b": 2},
                "matched_call_index": -1,
                "unmatched_reason": "arg 'b' missing",
            }
        ],
        ("expected subtract(a=1, b=2): arg 'b' missing",),
    )


def test_unasserted_arguments_are_ignored() -> None:
    calls = [call("subtract", a=1, b=2, note="x")]
    assert verdict_of([{"name": "subtract", "args": {"a": 1}}], calls).matched is True


def test_one_single_call_must_satisfy_every_asserted_argument() -> None:
    calls = [call("subtract", a=1, b=0), call("subtract", a=0, b=2)]
    verdict = verdict_of([{"name": "subtract", "args": {"a": 1, "b": 2}}], calls)
    # The reason is the last candidate's first failing argument.
    assert verdict == ToolVerdict(
        False,
        [
            {
                "expected_tool": "subtract",
                "args_asserted": {"a": 1, "b": 2},
                "matched_call_index": -1,
                "unmatched_reason": "arg 'a' mismatch: expected 1, got 0",
            }
        ],
        ("expected subtract(a=1, b=2): arg 'a' mismatch: expected 1, got 0",),
    )


def test_matcher_reasons_name_the_matcher() -> None:
    calls = [call("lookup", year="2018", item="cash")]
    fuzzy = verdict_of([{"name": "lookup", "args": {"item": {"fuzzy": "Debt"}}}], calls)
    regex = verdict_of([{"name": "lookup", "args": {"year": {"regex": "20(19|20)"}}}], calls)
    assert fuzzy.errors == (
        "expected lookup(item≈Debt): arg 'item' mismatch: expected ≈'Debt', got 'cash'",
    )
    assert regex.errors == (
        "expected lookup(year~20(19|20)): "
        "arg 'year' mismatch: expected regex '20(19|20)', got '2018'",
    )


def test_the_matching_call_is_reported_by_index_among_several() -> None:
    calls = [call("lookup", item="debt"), call("subtract", a=5, b=3), call("lookup", item="cash")]
    assert verdict_of([{"name": "lookup", "args": {"item": "cash"}}], calls) == ToolVerdict(
        True,
        [
            {
                "expected_tool": "lookup",
                "args_asserted": {"item": "cash"},
                "matched_call_index": 2,
                "unmatched_reason": None,
            }
        ],
    )


def test_names_match_as_case_sensitive_substrings_and_bare_names_have_no_record() -> None:
    calls = [call("finance_lookup_v2")]
    assert verdict_of(["lookup"], calls) == ToolVerdict(True, None)
    assert verdict_of(["Lookup", {"name": "v3"}], calls) == ToolVerdict(
        False, None, ("expected tool(s) not called in this turn: Lookup, v3",)
    )


def test_a_legacy_single_turn_case_reports_no_line_for_a_missing_bare_name() -> None:
    parsed: list[str | ExpectedTool] = ["divide"]
    assert check_tools(parsed, [call("lookup")], name_errors=False) == ToolVerdict(False, None)


def test_count_is_a_lower_bound_over_matching_calls() -> None:
    calls = [call("lookup", item="cash"), call("lookup", item="debt"), call("lookup", item="cash")]
    assert verdict_of([{"name": "lookup", "count": 2, "args": {"item": "cash"}}], calls).matched
    assert verdict_of([{"name": "lookup", "count": 3}], calls).matched is True
    assert verdict_of([{"name": "lookup", "count": 3, "args": {"item": "cash"}}], calls) == (
        ToolVerdict(
            False,
            [
                {
                    "expected_tool": "lookup",
                    "args_asserted": {"item": "cash"},
                    "matched_call_index": -1,
                    "unmatched_reason": "expected 3 matching call(s), got 2",
                }
            ],
            ("expected lookup(item=cash): expected 3 matching call(s), got 2",),
        )
    )
    assert verdict_of([{"name": "divide", "count": 2}], calls).errors == (
        "expected divide(): no call to 'divide' found",
    )


def test_no_assertions_and_an_empty_list() -> None:
    # `expected_tools: []` asserts nothing and holds; no `expected_tools` is no verdict.
    assert check_tools(None, [call("lookup")]) == ToolVerdict(None, None)
    assert check_tools([], []) == ToolVerdict(True, None)


def test_every_assertion_must_hold() -> None:
    verdict = verdict_of(["lookup", "divide"], [call("lookup")])
    missing = "expected tool(s) not called in this turn: divide"
    assert verdict == ToolVerdict(False, None, (missing,))


def test_reports_leave_out_the_default_count() -> None:
    entries = [
        ExpectedTool.model_validate({"name": "lookup", "args": {"year": {"regex": "2019"}}}),
        ExpectedTool.model_validate({"name": "lookup", "count": 2}),
        ExpectedTool.model_validate({"name": "divide"}),
    ]
    assert [expected_as_json(e) for e in entries] == [
        {"name": "lookup", "args": {"year": {"regex": "2019"}}},
        {"name": "lookup", "count": 2},
        {"name": "divide"},
    ]


def test_each_assertion_and_argument_is_a_check_at_its_field_path() -> None:
    expected: list[str | ExpectedTool] = [
        "lookup",
        "divide",
        ExpectedTool.model_validate({"name": "lookup", "args": {"year": {"regex": "2021"}}}),
        ExpectedTool.model_validate({"name": "lookup", "count": 3, "args": {"item": "cash"}}),
        ExpectedTool.model_validate({"name": "subtract", "args": {"a": 1}}),
    ]
    calls = [call("lookup", item="cash", year="2020"), call("lookup", item="cash")]
    names = ["lookup", "lookup"]
    tool = ("test_cases", 0, "expected_tools")
    verdict = scored(expected, calls)
    assert verdict.checks == (
        Check((*tool, 0), "tool", True, None, "lookup", names),
        Check((*tool, 1), "tool", False, "no call to 'divide' found", "divide", names),
        # Judged on the last call of the tool: its `year` is missing.
        Check(
            (*tool, 2), "tool", False, "arg 'year' missing", "lookup", names, 1,
            (Check((*tool, 2, "args", "year"), "arg", False, "arg 'year' missing",
                   {"regex": "2021"}, None),),
        ),
        # The arguments matched, but on too few calls: the count failed.
        Check(
            (*tool, 3, "count"), "tool", False, "expected 3 matching call(s), got 2", "lookup",
            names, 1, (Check((*tool, 3, "args", "item"), "arg", True, None, "cash", "cash"),),
        ),
        Check((*tool, 4), "tool", False, "no call to 'subtract' found", "subtract", names),
    )  # fmt: skip
    assert len(verdict.errors) == 4  # the missing name's line, then each failed entry's
