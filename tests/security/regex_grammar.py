"""Patterns built to make HL406's analysis work hard, for the fuzz test
(tests/security/test_regex_analysis_budget.py) and the benchmark
(`python -m benchmarks.regex_analysis`): nested quantifiers, bounded repeats nested in
bounded repeats, zero-width items (anchors, word boundaries, empty groups, lookarounds),
alternations, atomic groups and flags. Every pattern compiles.

Driven by a `random.Random`, so Hypothesis (`st.randoms()`) and the benchmark (a seeded
one) draw from the same grammar.
"""

from __future__ import annotations

import random
import re

ATOMS = ["a", "b", "x", ".", r"\d", r"\w", r"\s", "[a-z]", "[^,]", "[ab]", r"\.", "é", "中"]
ZERO_WIDTH = ["^", "$", r"\b", r"\B", r"\A", r"\Z", "(?:)", "(?=)", "(?!)", "(?<=a)",
              "(?<!b)"]
QUANTIFIERS = ["*", "+", "?", "{8}", "{0,8}", "{2,5}", "{3,}", "{9}", "*?", "+?", "*+", "{8}?"]
BOUNDED = ["{8}", "{0,8}", "{7,8}", "{1,8}"]
FLAGS = ["", "", "", "(?i)", "(?s)", "(?a)", "(?x)"]
MAX_DEPTH = 12
MAX_CHARS = 2_000


def hostile_pattern(rng: random.Random) -> str:
    """A pattern that compiles, of at most `MAX_CHARS` characters."""
    for _ in range(100):
        pattern = rng.choice(FLAGS) + _sequence(rng, rng.randint(0, MAX_DEPTH))
        if len(pattern) > MAX_CHARS:
            continue
        try:
            re.compile(pattern)
        except (re.error, RecursionError):  # a lookbehind of no fixed width, say
            continue
        return pattern
    return "a"  # pragma: no cover - the grammar almost always compiles


def _sequence(rng: random.Random, depth: int) -> str:
    return "".join(_piece(rng, depth) for _ in range(rng.randint(1, 3)))


def _piece(rng: random.Random, depth: int) -> str:
    roll = rng.random()
    if depth <= 0 or roll < 0.2:
        return rng.choice(ATOMS) + (rng.choice(QUANTIFIERS) if rng.random() < 0.4 else "")
    if roll < 0.35:
        return rng.choice(ZERO_WIDTH)
    if roll < 0.7:  # a bounded repeat around more of the same: the costly shape
        return f"(?:{_sequence(rng, depth - 1)}){rng.choice(BOUNDED)}"
    if roll < 0.85:
        branches = [_sequence(rng, depth - 1) for _ in range(rng.randint(2, 4))]
        return f"({'|'.join(branches)}){rng.choice(QUANTIFIERS)}"
    inner = _sequence(rng, depth - 1)
    shape = rng.choice(["(?={})", "(?!{})", "(?>{})", "({})", "(?:{})+", "(?:{})*"])
    return shape.format(inner)


def nested(core: str, depth: int, repeat: str = "{8}") -> str:
    """``core`` inside ``depth`` groups, each repeated by ``repeat``."""
    pattern = core
    for _ in range(depth):
        pattern = f"(?:{pattern}){repeat}"
    return pattern


# Known ways to make an unbounded analysis slow, and patterns at the longest length the
# analysis accepts (10,000 characters).
ADVERSARIAL = {
    **{f"nested {{8}} around {core or 'an empty group'!r}, depth 12": nested(core, 12)
       for core in ["", "^", r"\b", "(?=a)", "(?=)", "(?!)", "(?<=a)", "$"]},
    "nested {8} around a character and empty groups": nested("a" + "(?:)" * 50, 4),
    "nested {0,8} around an optional character": nested("a?", 6, "{0,8}"),
    "nested {8} around a lookahead with a loop": nested("(?=(a+)+b)", 12),
    "300 optional characters": "a?" * 300,
    "300 overlapping branches, repeated": "(?:" + "|".join(["a", "a?"] * 150) + ")*!",
    "dense pairs of branches": "(?:" + "|".join(
        f".{c}|{c}." for c in "abcdefghijklmnopqrstuvwxyz") + ")*!",
    "ignore case over many characters": "(?i)" + "".join(
        f"[{chr(0x100 + i)}-{chr(0x180 + i)}]" for i in range(0, 1990, 3))[:9990],
    "5,000 distinct characters in a class": "[" + "".join(
        chr(0x4E00 + i) for i in range(5000)) + "]+x",
    "10,000 literals": "a" * 10_000,
    "2,500 empty groups": "(?:)" * 2_500,
    "5,000 word boundaries": r"\b" * 5_000,
    "5,000 branches": "|".join("a" * 5_000),
    "1,400 repeated groups of two branches": "(?:a|b)*" * 1_250,
    "deep groups": "(" * 90 + "a" + ")*" * 90,
    "lookaheads at length": "(?=a)" * 1_999,
}
