"""Per-turn tool assertions: names by substring, args by matcher, `count` as a lower bound.

As `holodeck test` does: a bare name (or a name-only entry with the default `count: 1`)
only needs a call whose name contains it; an entry with `args` or a `count` above 1 is
checked call by call and gets an `arg_match_details` record. Failed assertions are also
turn errors, one line each.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from holodeck_lsp.models.test_case import ExpectedTool
from holodeck_lsp.models.test_result import ToolInvocation
from holodeck_lsp.runner.score.arg_matchers import brief, mismatch, regex_pairs
from holodeck_lsp.runner.score.regex_limit import Verdicts
from holodeck_lsp.validation.yaml.source_map import YamlPath

# The error lines of failed assertions, maybe rolled up with a `[turn N] ` prefix.
_ASSERTION_LINE = re.compile(
    r"^(\[turn \d+\] )?expected (tool\(s\) not called in this turn: |\S+\(.*\): )"
)


def is_assertion_line(error: str) -> bool:
    """Whether an error line is a tool assertion that did not hold (not a failed run)."""
    return _ASSERTION_LINE.match(error) is not None


def expected_as_json(entry: str | ExpectedTool) -> str | dict[str, Any]:
    """The serialized form of one assertion for reports: the default `count: 1` left out."""
    if isinstance(entry, str):
        return entry
    out: dict[str, Any] = {"name": entry.name}
    if entry.args is not None:
        out["args"] = {str(k): v for k, v in entry.args.items()}
    if entry.count != 1:
        out["count"] = entry.count
    return out


@dataclass
class ToolVerdict:
    """What a turn's tool assertions say: None/None without assertions."""

    matched: bool | None = None
    details: list[dict[str, Any]] | None = None
    errors: list[str] = field(default_factory=list)


def name_only(entry: str | ExpectedTool) -> str | None:
    if isinstance(entry, str):
        return entry
    return entry.name if entry.args is None and entry.count == 1 else None


def turn_regex_pairs(
    expected: list[str | ExpectedTool] | None, calls: list[ToolInvocation]
) -> list[tuple[str, str]]:
    """Every (pattern, text) the turn's assertions full-match: judged before they are checked."""
    pairs: list[tuple[str, str]] = []
    for entry in expected or []:
        if isinstance(entry, ExpectedTool) and entry.args:
            named = [c.args for c in calls if entry.name in c.name]
            pairs.extend(regex_pairs(entry.args, named))
    return pairs


def check_one(
    entry: ExpectedTool, calls: list[ToolInvocation], regexes: Verdicts, at: YamlPath
) -> dict[str, Any]:
    """One entry (written at ``at``) with `args` or `count`: its `arg_match_details` record."""
    args = {str(k): v for k, v in (entry.args or {}).items()}
    named = [(i, c) for i, c in enumerate(calls) if entry.name in c.name]
    satisfying: list[int] = []
    last_reason: str | None = None
    for i, call in named:
        problem = mismatch(args, call.args, regexes, (*at, "args")) if args else None
        if problem is None:
            satisfying.append(i)
        else:
            last_reason = problem
    reason: str | None = None
    if len(satisfying) < entry.count:
        if not named:
            reason = f"no call to '{entry.name}' found"
        elif not satisfying and last_reason:
            reason = last_reason  # the last candidate's first failing argument
        else:
            reason = f"expected {entry.count} matching call(s), got {len(satisfying)}"
    return {
        "expected_tool": entry.name,
        "args_asserted": args,
        "matched_call_index": satisfying[0] if reason is None else -1,
        "unmatched_reason": reason,
    }


def check_tools(
    expected: list[str | ExpectedTool] | None,
    calls: list[ToolInvocation],
    regexes: Verdicts,
    at: YamlPath,
    *,
    name_errors: bool = True,
) -> ToolVerdict:
    """The verdict on the assertions of the turn written at ``at``, with the verdicts on its
    `turn_regex_pairs`. ``name_errors``: report missing bare names as an error line too
    (multi-turn turns do, legacy single-turn cases do not)."""
    if expected is None:
        return ToolVerdict()
    names = [n for n in map(name_only, expected) if n is not None]
    missing = [n for n in names if not any(n in c.name for c in calls)]
    details = [
        check_one(e, calls, regexes, (*at, "expected_tools", j))
        for j, e in enumerate(expected)
        if isinstance(e, ExpectedTool) and name_only(e) is None
    ]
    failed = [d for d in details if d["matched_call_index"] == -1]
    verdict = ToolVerdict(not missing and not failed, details or None)
    if missing and name_errors:
        verdict.errors.append(f"expected tool(s) not called in this turn: {', '.join(missing)}")
    for record in failed:
        verdict.errors.append(
            f"expected {record['expected_tool']}({brief(record['args_asserted'])}): "
            f"{record['unmatched_reason']}"
        )
    return verdict
