"""Templates for whole entries: a test case, a turn, an expected tool, matchers, metrics.

Bodies use the LSP snippet syntax (`${1:default}`, `$0`) and two-space relative
indentation; `render` places them at a column. A test validates each body, with its
placeholders filled by their defaults, against the model it stands for, so the
templates cannot drift from the models.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic import BaseModel

from holodeck_lsp.models.evaluation import CodeMetric, EvaluationMetric
from holodeck_lsp.models.test_case import MATCHER_MEANINGS, ExpectedTool, TestCaseModel, Turn


@dataclass(frozen=True)
class Snippet:
    label: str
    detail: str
    body: str
    model: type[BaseModel] | None  # what the body validates as (None: a matcher value)


def _sentence(text: str) -> str:
    return text[0].upper() + text[1:]


TEST_CASE_MULTI = Snippet(
    "test case (multi-turn)",
    "A named test case with two turns",
    "name: ${1:case name}\n"
    "turns:\n"
    "  - input: ${2:first user message}\n"
    "    ground_truth: ${3:expected reply}\n"
    "  - input: ${4:follow-up message}$0",
    TestCaseModel,
)
TEST_CASE_SINGLE = Snippet(
    "test case (single-turn)",
    "A named test case with one input",
    "name: ${1:case name}\ninput: ${2:user message}\nground_truth: ${3:expected reply}$0",
    TestCaseModel,
)
TURN = Snippet(
    "turn",
    "One user message and the expected reply",
    "input: ${1:user message}\nground_truth: ${2:expected reply}$0",
    Turn,
)
EXPECTED_TOOL = Snippet(
    "expected tool with args",
    "A tool call the turn must make, with argument matchers",
    "name: ${1:tool_name}\nargs:\n  ${2:argument}: ${3:value}\ncount: ${4:1}$0",
    ExpectedTool,
)
FUZZY = Snippet(
    "fuzzy matcher",
    _sentence(MATCHER_MEANINGS["fuzzy"]),
    '{fuzzy: "${1:text}"}$0',
    None,
)
REGEX = Snippet(
    "regex matcher",
    _sentence(MATCHER_MEANINGS["regex"]),
    "{regex: '${1:pattern}'}$0",
    None,
)
CODE_METRIC = Snippet(
    "code metric",
    "A metric computed by your own Python function",
    "type: code\ngrader: ${1:graders}:${2:grade}\nthreshold: ${3:0.5}$0",
    CodeMetric,
)
EQUALITY_METRIC = Snippet(
    "equality metric",
    "Exact comparison of the reply with ground_truth",
    "type: standard\nmetric: equality\ncase_insensitive: ${1:true}$0",
    EvaluationMetric,
)

TEST_CASES = (TEST_CASE_MULTI, TEST_CASE_SINGLE)
MATCHERS = (FUZZY, REGEX)
METRICS = (CODE_METRIC, EQUALITY_METRIC)
ALL = (*TEST_CASES, TURN, EXPECTED_TOOL, *MATCHERS, *METRICS)

_PLACEHOLDER = re.compile(r"\$\{\d+:([^}]*)\}")
_TABSTOP = re.compile(r"\$\{\d+\}|\$\d+")


def plain(body: str) -> str:
    """The text a client without snippet support inserts: placeholders by their defaults."""
    return _TABSTOP.sub("", _PLACEHOLDER.sub(r"\1", body))


def render(body: str, column: int, dash: bool = False) -> str:
    """Place a body at ``column`` (continuation lines indented absolutely).

    With ``dash`` the body becomes a new sequence item: `- ` at ``column``, its keys
    two columns further in.
    """
    inner = column + 2 if dash else column
    lines = body.split("\n")
    out = [("- " if dash else "") + lines[0]]
    out.extend(" " * inner + line if line else line for line in lines[1:])
    return "\n".join(out)
