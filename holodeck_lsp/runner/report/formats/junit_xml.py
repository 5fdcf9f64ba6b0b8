"""JUnit XML: a `<testsuite>` per test case, a `<testcase>` per turn.

`<failure>` is an assertion that did not hold (tools, metrics); `<error>` is a turn that
could not be judged (timeout, backend or agent error, grader exception); `<skipped>` is a
turn never sent because its session had ended.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from holodeck_lsp.hygiene.clipping import clip
from holodeck_lsp.hygiene.xml import xml_text
from holodeck_lsp.models.comparison import Comparison
from holodeck_lsp.models.test_result import (
    RepeatedCase,
    TestReport,
    TestResult,
    TurnResult,
)
from holodeck_lsp.runner.report.failure_reasons import turn_problems
from holodeck_lsp.runner.score.turn_scores import Records, TurnScore


def _excerpt(text: str, limit: int = 60) -> str:
    return clip(" ".join(text.split()), limit)


def _well_formed(root: ET.Element) -> None:
    """Characters XML 1.0 forbids (a reply's control characters) become visible escapes."""
    for element in root.iter():
        element.text = xml_text(element.text) if element.text else element.text
        for name, value in element.attrib.items():
            element.attrib[name] = xml_text(value)


def _seconds(ms: int) -> str:
    return f"{ms / 1000:.3f}"


def _outcome(passed: bool, skipped: bool, score: TurnScore) -> str:
    """An error when the turn could not be judged (no reply, a metric not computed)."""
    if skipped:
        return "skipped"
    if score.failure is not None or any(m.result.error for m in score.metrics):
        return "error"
    return "passed" if passed else "failure"


def _single_problems(result: TestResult, score: TurnScore) -> list[str]:
    out = list(result.errors)
    if result.tools_matched is False and not score.tools.errors:
        out.append(
            f"expected tools not matched: {result.expected_tools}; "
            f"calls: {', '.join(result.tool_calls) or 'none'}"
        )
    out += [
        f"metric `{m.metric_name}` failed: {m.error or m.reasoning or 'below threshold'}"
        for m in result.metric_results
        if m.passed is False
    ]
    return out


def _testcase(
    suite: ET.Element,
    classname: str,
    name: str,
    ms: int,
    outcome: str,
    problems: list[str],
    response: str | None,
) -> None:
    case = ET.SubElement(suite, "testcase", classname=classname, name=name, time=_seconds(ms))
    if outcome in ("failure", "error"):
        message = problems[0] if problems else outcome
        tag = ET.SubElement(case, outcome, message=_excerpt(message, 200), type=outcome)
        tag.text = "\n".join(problems)
    elif outcome == "skipped":
        ET.SubElement(case, "skipped", message=_excerpt(problems[0] if problems else "", 200))
    if response:
        ET.SubElement(case, "system-out").text = response


def _repeated(suite: ET.Element, repeat: RepeatedCase) -> None:
    """The attempts of a repeated case as properties; passing turns that failed in some
    attempt carry a `<flakyFailure>`, as Maven Surefire marks tests that passed on rerun."""
    k = str(repeat.attempts)
    properties = ET.Element("properties")
    for name, value in (
        ("flaky", str(repeat.flaky).lower()),
        ("attempts", k),
        ("passed_attempts", str(repeat.passed_attempts)),
        (f"pass^{k}", str(repeat.pass_hat_k.get(k, 0.0))),
        (f"pass@{k}", str(repeat.pass_at_k.get(k, 0.0))),
    ):
        ET.SubElement(properties, "property", name=name, value=value)
    suite.insert(0, properties)  # properties come before the test cases
    cases = [c for c in suite if c.tag == "testcase"]
    for case, rate in zip(cases, repeat.turn_pass_rates, strict=False):
        passed = not any(child.tag in ("failure", "error", "skipped") for child in case)
        if passed and rate < 1.0:
            failed = round((1.0 - rate) * repeat.attempts)
            message = f"failed in {failed} of {repeat.attempts} attempts"
            ET.SubElement(case, "flakyFailure", message=message, type="flaky")


def _turn(suite: ET.Element, classname: str, turn: TurnResult, score: TurnScore) -> str:
    outcome = _outcome(turn.passed, turn.skipped, score)
    name = f"turn {turn.turn_index}: {_excerpt(turn.input)}"
    problems = (
        [e.removeprefix("skipped: ") for e in turn.errors]
        if turn.skipped
        else (turn_problems(turn))
    )
    _testcase(suite, classname, name, turn.execution_time_ms, outcome, problems, turn.response)
    return outcome


def render_junit(report: TestReport, records: Records, baseline: Comparison | None = None) -> str:
    """JUnit XML, from the report and the record of each turn (a baseline has no place in
    it: CI tools read only verdicts)."""
    root = ET.Element("testsuites", name=report.agent_name)
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for i, (result, scores) in enumerate(zip(report.results, records, strict=True)):
        label = result.test_name or f"test_cases[{i}]"
        suite = ET.SubElement(root, "testsuite", name=label, timestamp=result.timestamp)
        classname = f"{report.agent_name}.{label}"
        if result.turns:
            turns = zip(result.turns, scores, strict=True)
            outcomes = [_turn(suite, classname, turn, score) for turn, score in turns]
        else:
            score = scores[0]
            outcome = _outcome(result.passed, False, score)
            _testcase(
                suite,
                classname,
                label,
                result.execution_time_ms,
                outcome,
                _single_problems(result, score),
                result.agent_response,
            )
            outcomes = [outcome]
        counts = {
            "tests": len(outcomes),
            "failures": outcomes.count("failure"),
            "errors": outcomes.count("error"),
            "skipped": outcomes.count("skipped"),
        }
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
        suite.set("time", _seconds(result.execution_time_ms))
        if i < len(report.repeats):
            _repeated(suite, report.repeats[i])
    for label in report.not_run:  # an interrupted run: what did not run is said, not lost
        suite = ET.SubElement(root, "testsuite", name=label, tests="1", skipped="1")
        message = f"not run: {report.stop_reason or 'the run stopped'}"
        case = ET.SubElement(
            suite, "testcase", classname=f"{report.agent_name}.{label}", name=label
        )
        ET.SubElement(case, "skipped", message=_excerpt(message, 200))
        totals["tests"] += 1
        totals["skipped"] += 1
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("time", _seconds(report.summary.total_duration_ms))
    _well_formed(root)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"
