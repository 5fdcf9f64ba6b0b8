"""Before any run, `check` and the editor warn on a matcher regex that can backtrack
exponentially (HL406, issue 19 item 5): a repetition that can match the same text in more
than one way. Patterns that are merely polynomial, or linear, get no warning."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lsprotocol import types

from holodeck_lsp.validation.lints.backtracking import backtracks_exponentially
from holodeck_lsp.validation.lints.matchers import BACKTRACKING
from tests.runner.helpers import invoke, write
from tests.server.lsp_client import FIXTURES, diag, open_doc
from tests.server.shared_servers import SHARES_SERVERS, LendPush

W = types.DiagnosticSeverity.Warning

# An agent whose one test case asserts the arguments that follow it.
LOOKUPS = """
name: lint
model:
  provider: openai
  name: gpt-4o
instructions:
  inline: Answer.
tools:
  - {name: lookup, type: function, description: Look up., file: tools.py, function: lookup}
test_cases:
  - name: lookups
    input: look it up
    expected_tools:
      - name: lookup
        args:
"""
AGENT = LOOKUPS + r"""          q: {regex: "(a+)+b"}
          r: {regex: '^\d{4}-\d{2}$'}
          s:
            regex: '^(\w+\s?)*$'
"""
TOOLS = "def lookup(q, r, s):\n    return 1\n"
WHERE = 'test case "lookups": test_cases[0].expected_tools[0].args.{}.regex'

# Each backtracks exponentially in `re` (a text that almost matches doubles the time with
# every character or two): nested repetition, overlapping branches, both.
EXPONENTIAL = [
    r"(a+)+b",
    r"(a|a)*",
    r"(a|b|ab)*c",
    r"(\w+\s?)*$",
    r"^(\d+)*$",
    r"(a*)*b",
    r"(a?b?)*c",
    r"(a{1,3})+b",
    r"(\s*\w+\s*)*",
    r"((ab)*)*c",
    r"(?=(a+)+b)a*",
    r"(x+x+)+y",
    r"(?i)(a|A|aa)+$",
    r"^([a-z0-9])(([\-.]|[_]+)?([a-z0-9]+))*(@)[a-z0-9]+\.[a-z]{2,3}$",
]
# Linear or polynomial in `re`. `(a|ab)*c`: each `a` either ends a branch or needs the
# `b` that follows, so every text has one way at most; `(a|A)+` and `(\d|\w)+` are parsed as
# one character set; `(a|a){2}` is bounded; `(?>a+)+` and `(a++)+` never give back.
ORDINARY = [
    r"^\d{4}-\d{2}$",
    r".*foo.*",
    r"(ab)+",
    r"[a-z]+@[a-z]+\.com",
    r"(a|ab)*c",
    r"(?i)(a|A)+$",
    r"(\d|\w)+!",
    r"(a|a){2}",
    r"(\w+\s?){1,3}",
    r"(?>a+)+b",
    r"(a++)+b",
    r"(\d+,)*\d+",
    r"(\d{1,3}\.){3}\d{1,3}",
    r"^[\w.+-]+@[\w-]+(\.[\w-]+)+$",
    r"^https?://[^\s/$.?#].[^\s]*$",
    r"^(\+\d{1,3})?\s?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}$",
    r"([^,]+,)*[^,]+",
    r"(foo|bar)+baz",
    r"^2009.*cash.*$",
    r"206588(\.0)?",
    r"(?s).*",
]


def test_check_warns_at_each_pattern_that_backtracks_exponentially(tmp_path: Path) -> None:
    path = write(tmp_path, {"agent.yaml": AGENT, "tools.py": TOOLS})
    code, out, _ = invoke("check", path, "--format", "github")
    lines = [
        f"::warning file={path},line={line},col={col},endLine={line},endColumn={end},"
        f"title=HL406 regex-backtracking::{BACKTRACKING} ({WHERE.format(arg)})"
        for line, col, end, arg in ((15, 22, 30, "q"), (18, 20, 33, "s"))
    ]
    assert (code, out.splitlines()) == (0, lines)


@SHARES_SERVERS
async def test_the_editor_warns_on_the_pattern(tmp_path: Path, lend_push: LendPush) -> None:
    workspace = tmp_path / "ws"
    shutil.copytree(FIXTURES / "workspace", workspace)
    async with lend_push(workspace) as client:
        write(workspace, {"tools.py": TOOLS})
        agent = open_doc(client, workspace / "lint.agent.yaml", AGENT.lstrip("\n"))
        assert await client.diagnostics_of(agent) == [
            diag((14, 21), (14, 29), "HL406", f"{BACKTRACKING} ({WHERE.format('q')})", W),
            diag((17, 19), (17, 32), "HL406", f"{BACKTRACKING} ({WHERE.format('s')})", W),
        ]


@pytest.mark.parametrize("pattern", EXPONENTIAL)
def test_exponential_patterns_are_found(pattern: str) -> None:
    assert backtracks_exponentially(pattern)


@pytest.mark.parametrize("pattern", ORDINARY)
def test_ordinary_patterns_are_not(pattern: str) -> None:
    assert not backtracks_exponentially(pattern)


# Ordinary patterns as people write them: literals, classes and escapes, each maybe
# repeated, in sequence; groups with branches; a group repeated only when it repeats
# nothing inside and starts with a literal no neighbour can match.
ATOMS = st.sampled_from(["a", "b", "x", "-", r"\.", r"\d", r"\w", r"\s", "[a-z]", "[^,]", "."])
QUANTIFIERS = st.sampled_from(["", "", "?", "*", "+", "{2}", "{1,3}", "{2,}"])
PIECES = st.builds(lambda a, q: a + q, ATOMS, QUANTIFIERS)
PLAIN = st.lists(ATOMS, min_size=1, max_size=3).map("".join)
GROUPS = st.one_of(
    st.lists(st.lists(PIECES, min_size=1, max_size=3).map("".join), min_size=1, max_size=3).map(
        lambda branches: "(" + "|".join(branches) + ")"
    ),
    st.builds(lambda body, q: f"(#{body}){q}", PLAIN, st.sampled_from(["*", "+", "{1,20}"])),
)
PATTERNS = st.builds(
    lambda head, parts, tail: head + "".join(parts) + tail,
    st.sampled_from(["", "^"]),
    st.lists(st.one_of(PIECES, GROUPS), min_size=1, max_size=5),
    st.sampled_from(["", "$"]),
)


@given(PATTERNS)
def test_no_ordinary_pattern_is_reported(pattern: str) -> None:
    re.compile(pattern)
    assert not backtracks_exponentially(pattern), pattern


@given(ATOMS, st.sampled_from(["(X+)+", "(X*)*", "(X|X)*", "(X+Y?)+", "(?:X|Y|XY)+"]))
def test_a_repetition_of_an_ambiguous_body_is_reported(atom: str, shape: str) -> None:
    pattern = shape.replace("X", atom).replace("Y", "#")
    assert backtracks_exponentially(pattern + "!"), pattern


LETTERS = "abcdefghijklmnopqrstuvwxyz"


@pytest.mark.parametrize(
    ("pattern", "verdict"),
    [
        # Dense: 52 branches that overlap two by two, found without walking every pair.
        ("(?:" + "|".join([f".{c}" for c in LETTERS] + [f"{c}." for c in LETTERS]) + ")*!", True),
        ("[" + "".join(chr(0x4E00 + i) for i in range(5000)) + "]+x", False),  # 5,000 letters
        ("(" * 90 + "a" + ")*" * 90, True),  # deep
        ("a" * 100_000, False),  # long: not analysed
        ("((a{8}){8}){8}", False),  # 512 positions written out: not analysed
    ],
    ids=["dense", "big set", "deep", "long", "wide"],
)
def test_hostile_patterns_get_an_answer(pattern: str, verdict: bool) -> None:
    # Each in well under a second (the server analyses a pattern per keystroke); past the
    # limits on size the answer is no warning.
    assert backtracks_exponentially(pattern) is verdict
