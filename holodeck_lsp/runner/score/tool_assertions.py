"""Per-turn tool assertions: names by substring, args by matcher, `count` as a lower bound.

As `holodeck test` does: a bare name (or a name-only entry with the default `count: 1`)
only needs a call whose name contains it; an entry with `args` or a `count` above 1 is
checked call by call and gets an `arg_match_details` record. Failed assertions are also
turn errors, one line each. Each assertion, and each argument matcher of an entry on the
call its verdict was taken on, is a `Check` at the field path it is written at.
"""

from __future__ import annotations

from typing import Any

from holodeck_lsp.models.test_case import ExpectedTool
from holodeck_lsp.models.test_result import ToolInvocation
from holodeck_lsp.runner.score.arg_matchers import arg_mismatch, brief, mismatch, regex_pairs
from holodeck_lsp.runner.score.regex_limit import Verdicts
from holodeck_lsp.runner.score.turn_scores import NO_ASSERTIONS, Check, ToolVerdict
from holodeck_lsp.validation.yaml.source_map import YamlPath


def names_match(expected: str, called: str) -> bool:
    """An expected tool's name matches a call whose name contains it (case-sensitive)."""
    return expected in called


def is_called(name: str, calls: list[str]) -> bool:
    """Whether a bare name's assertion holds."""
    return any(names_match(name, called) for called in calls)


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


def bare_name(entry: Any) -> str | None:
    """The name of a report's assertion (`expected_as_json`'s form) written as a bare name
    (or a name with the default count), None for one with arguments or a count."""
    if isinstance(entry, str):
        return entry
    if isinstance(entry, dict) and entry.get("args") is None and entry.get("count", 1) == 1:
        name = entry.get("name")
        return name if isinstance(name, str) else None
    return None


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
            named = [c.args for c in calls if names_match(entry.name, c.name)]
            pairs.extend(regex_pairs(entry.args, named))
    return pairs


def check_one(
    entry: ExpectedTool, calls: list[ToolInvocation], regexes: Verdicts, at: YamlPath
) -> tuple[dict[str, Any], Check]:
    """One entry (written at ``at``) with `args` or `count`: its `arg_match_details` record,
    and its check (at `.count` when calls matched the arguments but too few of them), with
    each argument judged on the matching call, else on the last call of that tool."""
    args = {str(k): v for k, v in (entry.args or {}).items()}
    named = [(i, c) for i, c in enumerate(calls) if names_match(entry.name, c.name)]
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
    record = {
        "expected_tool": entry.name,
        "args_asserted": args,
        "matched_call_index": satisfying[0] if reason is None else -1,
        "unmatched_reason": reason,
    }
    judged = satisfying[0] if reason is None else (named[-1][0] if named else None)
    where = (*at, "count") if reason is not None and satisfying else at
    names = [c.name for c in calls]
    checks = () if judged is None else _arg_checks(args, calls[judged], regexes, (*at, "args"))
    check = Check(where, "tool", reason is None, reason, entry.name, names, judged, checks)
    return record, check


def _arg_checks(
    args: dict[str, Any], call: ToolInvocation, regexes: Verdicts, at: YamlPath
) -> tuple[Check, ...]:
    out = []
    for name, spec in args.items():
        path: YamlPath = (*at, name)
        if name not in call.args:
            out.append(Check(path, "arg", False, f"arg '{name}' missing", spec, None))
            continue
        actual = call.args[name]
        problem = arg_mismatch(spec, actual, regexes, path)
        out.append(Check(path, "arg", problem is None, problem, spec, actual))
    return tuple(out)


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
        return NO_ASSERTIONS
    names = [c.name for c in calls]
    checks: list[Check] = []
    details: list[dict[str, Any]] = []
    missing: list[str] = []
    for k, entry in enumerate(expected):
        path: YamlPath = (*at, "expected_tools", k)
        bare = name_only(entry)
        if bare is not None:
            called = is_called(bare, names)
            if not called:
                missing.append(bare)
            message = None if called else f"no call to '{bare}' found"
            checks.append(Check(path, "tool", called, message, bare, names))
            continue
        assert isinstance(entry, ExpectedTool)
        record, check = check_one(entry, calls, regexes, path)
        details.append(record)
        checks.append(check)
    failed = [d for d in details if d["matched_call_index"] == -1]
    errors = []
    if missing and name_errors:
        errors.append(f"expected tool(s) not called in this turn: {', '.join(missing)}")
    errors += [assertion_line(record) for record in failed]
    return ToolVerdict(not missing and not failed, details or None, tuple(errors), tuple(checks))


def assertion_line(record: dict[str, Any]) -> str:
    """The error line of an entry that did not hold, from its `arg_match_details` record."""
    return (
        f"expected {record['expected_tool']}({brief(record['args_asserted'])}): "
        f"{record['unmatched_reason']}"
    )
