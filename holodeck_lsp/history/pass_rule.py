"""`--pass-rule`: how many of a test case's `--repeat` attempts must pass for its verdict.
`run` applies it to a run's cases; a history applies a run's own rule to its turns."""

from __future__ import annotations


def parse_pass_rule(text: str) -> float:
    """The share of attempts that must pass: `all` is 1, `any` is just above 0."""
    if text == "all":
        return 1.0
    if text == "any":
        return 0.0
    try:
        share = float(text)
    except ValueError:
        share = -1.0
    if not 0.0 < share <= 1.0:
        raise ValueError(f"--pass-rule is all, any or a fraction in (0, 1], got {text!r}")
    return share


def rule_passes(passed: int, attempts: int, share: float) -> bool:
    if attempts == 0:
        return False
    if share == 0.0:  # any
        return passed > 0
    return passed >= share * attempts - 1e-9
