"""Per-turn tool assertions: names by substring, args by matcher, `count` as a lower bound."""

from __future__ import annotations

from typing import Any

from holodeck_lsp.models.test_case import ExpectedTool
from holodeck_lsp.models.test_result import ToolInvocation
from holodeck_lsp.runner.matchers import mismatch


def expected_as_json(entry: str | ExpectedTool) -> str | dict[str, Any]:
    """The serialized config form of one assertion, for reports."""
    if isinstance(entry, str):
        return entry
    return entry.model_dump(mode="json", exclude_none=True)


def check_one(entry: str | ExpectedTool, calls: list[ToolInvocation]) -> dict[str, Any]:
    """One assertion against the turn's calls: the `arg_match_details` record."""
    name = entry if isinstance(entry, str) else entry.name
    args = None if isinstance(entry, str) else entry.args
    need = 1 if isinstance(entry, str) else entry.count
    named = [(i, c) for i, c in enumerate(calls) if name in c.name]
    matched: list[int] = []
    reasons: list[str] = []
    for i, call in named:
        problem = mismatch(args, call.args) if args else None
        if problem is None:
            matched.append(i)
        else:
            reasons.append(f"call {i} ({call.name}): {problem}")
    reason: str | None = None
    if not named:
        seen = ", ".join(c.name for c in calls) or "none"
        reason = f"no call of a tool whose name contains '{name}' (calls: {seen})"
    elif len(matched) < need:
        what = "matching call" + ("s" if need > 1 else "")
        reason = f"expected at least {need} {what} of '{name}', found {len(matched)}"
        if reasons:
            reason += ": " + "; ".join(reasons)
    return {
        "tool": name,
        "args_asserted": {str(k): v for k, v in args.items()} if args else None,
        "matched_call_index": matched[0] if matched and reason is None else None,
        "unmatched_reason": reason,
    }


def check_tools(
    expected: list[str | ExpectedTool] | None, calls: list[ToolInvocation]
) -> tuple[bool | None, list[dict[str, Any]] | None]:
    """(tools_matched, arg_match_details); (None, None) when the turn asserts no tools."""
    if not expected:
        return None, None
    details = [check_one(entry, calls) for entry in expected]
    return all(d["unmatched_reason"] is None for d in details), details
