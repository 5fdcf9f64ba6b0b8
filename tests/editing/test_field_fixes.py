"""The one-field quick fixes: grader format, fuzzy with regex, empty turns, negative
tolerance, a code metric's foreign field. Each: the fix's title, the whole text after it,
and the diagnostics left."""

from __future__ import annotations

from holodeck_lsp.editing.fixes import fixes_for
from holodeck_lsp.editing.text_edits import apply
from tests.editing.test_fixes import HEAD, diagnostics

TOOL = (
    "tools:\n  - name: lookup\n    type: function\n    description: d\n"
    "    file: tools.py\n    function: lookup\n"
)


def offered(text: str, code: str) -> list[tuple[str, bool, str]]:
    """(title, preferred, text after it) of every fix of the first diagnostic ``code``."""
    (first, *_) = [d for d in diagnostics(text) if d.code == code]
    return [(f.title, f.preferred, apply(text, [f.edit])) for f in fixes_for(text, first)]


def codes(text: str) -> list[str]:
    return [d.code for d in diagnostics(text)]


def test_a_grader_with_dots_only_gets_a_colon_before_its_function() -> None:
    metric = "evaluations:\n  metrics:\n    - type: code\n      grader: {}  # mine\n"
    for written, fixed in (
        ("graders.checks.exact", "graders.checks:exact"),
        ('"graders.exact"', '"graders:exact"'),
    ):
        text = HEAD + metric.format(written)
        assert offered(text, "HL501") == [
            ("Write the grader as module:function", True, HEAD + metric.format(fixed))
        ]


def test_fuzzy_with_regex_offers_to_keep_either_and_prefers_neither() -> None:
    flow = (
        HEAD
        + TOOL
        + (
            "test_cases:\n  - turns:\n      - input: q\n        expected_tools:\n"
            "          - name: lookup\n            args:\n"
            '              b: {fuzzy: "1,000", regex: "1.?000"}  # either\n'
        )
    )
    choices = offered(flow, "HL402")
    assert choices == [
        ("Keep 'fuzzy' only", False, flow.replace(', regex: "1.?000"}', "}")),
        ("Keep 'regex' only", False, flow.replace('fuzzy: "1,000", ', "")),
    ]
    assert [codes(after) for _, _, after in choices] == [[], []]
    block = (
        HEAD
        + TOOL
        + (
            "test_cases:\n  - turns:\n      - input: q\n        expected_tools:\n"
            "          - name: lookup\n            args:\n              b:\n"
            '                fuzzy: "1,000"  # loose\n                regex: "1.?000"\n'
        )
    )
    regex_line, fuzzy_line = (
        '                regex: "1.?000"\n',
        '                fuzzy: "1,000"  # loose\n',
    )
    assert offered(block, "HL402") == [
        ("Keep 'fuzzy' only", False, block.replace(regex_line, "")),
        ("Keep 'regex' only", False, block.replace(fuzzy_line, "")),
    ]


def test_empty_turns_get_a_turn_to_write() -> None:
    text = HEAD + "test_cases:\n  - name: c\n    turns: []\n  - input: next\n"
    ((title, preferred, after),) = offered(text, "HL202")
    assert (title, preferred) == ("Insert a turn", True)
    assert after == HEAD + (
        'test_cases:\n  - name: c\n    turns:\n      - input: "TODO"\n  - input: next\n'
    )
    assert codes(after) == []
    commented = HEAD + "test_cases:\n  - name: c\n    turns: []  # later\n"
    ((_, _, after),) = offered(commented, "HL202")
    assert after == HEAD + 'test_cases:\n  - name: c\n    turns: [{input: "TODO"}]  # later\n'


def test_a_negative_tolerance_becomes_zero() -> None:
    metric = "evaluations:\n  metrics:\n    - type: standard\n      metric: numeric\n"
    text = HEAD + metric + "      absolute_tolerance: -0.5  # oops\n"
    assert offered(text, "HL105") == [
        ("Set the tolerance to 0", True, HEAD + metric + "      absolute_tolerance: 0  # oops\n")
    ]


def test_a_code_metric_loses_a_field_only_other_metric_types_have() -> None:
    text = HEAD + (
        "evaluations:\n  metrics:\n    - type: code\n      grader: graders:exact\n"
        "      criteria: must match\n      threshold: 0.5\n"
    )
    assert offered(text, "HL101") == [
        (
            "Remove this field (code metrics do not read it)",
            True,
            text.replace("      criteria: must match\n", ""),
        )
    ]
    # A key no metric type has is no such field: only a did-you-mean could fix it.
    unknown = text.replace("criteria", "critter")
    assert offered(unknown, "HL101") == []
