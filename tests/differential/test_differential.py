"""Our error severity is HoloDeck's verdict: a file (with the files it pulls in) gets an
error-severity diagnostic from ``holodeck-lsp check`` exactly when HoloDeck 0.7.1 refuses to
load it.

Inputs: every YAML file under ``tests/fixtures/valid``, ``tests/fixtures/invalid`` and
``tests/differential/cases``. HoloDeck judges them all in one oracle run; ``check`` runs once
per file, because an agent is refused for errors in its test_cases_file or project config too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.differential.check_runner import CheckResult, check_all
from tests.differential.differential_inputs import REPO, fixture_files
from tests.differential.oracle_client import Verdict

pytestmark = pytest.mark.slow


@pytest.fixture(scope="session")
def our_results() -> dict[Path, CheckResult]:
    return check_all(fixture_files(), cwd=REPO)


def _show(path: Path) -> str:
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def _describe(path: Path, theirs: Verdict, ours: CheckResult) -> str:
    holodeck = "accepts" if theirs.accepted else f"REJECTS: {theirs.error}"
    errors = [f.render() for f in ours.findings if f.severity == "error"]
    others = [f.render() for f in ours.findings if f.severity != "error"]
    lines = [_show(path), f"  HoloDeck 0.7.1 {holodeck}".replace("\n", "\n    ")]
    if ours.problem:
        lines.append(f"  holodeck-lsp run failed: {ours.problem}")
    lines.append(f"  holodeck-lsp errors: {len(errors)}")
    lines += [f"    {e}" for e in errors]
    lines += [f"    (non-error) {o}" for o in others]
    return "\n".join(lines)


# Errors that deviate from HoloDeck's verdict on purpose. HL608: a FIFO, a device or a
# file of /proc named by the agent is refused unread (SECURITY.md), where HoloDeck reads it:
# /dev/null as an empty file it accepts, a FIFO or /dev/zero until it hangs or runs out of
# memory.
DELIBERATE_ERRORS = {"HL608"}


def _deliberate(theirs: Verdict, ours: CheckResult) -> bool:
    codes = {f.code for f in ours.findings if f.severity == "error"}
    return theirs.accepted and bool(codes) and codes <= DELIBERATE_ERRORS


def test_error_severity_matches_holodeck(
    fixture_verdicts: dict[Path, Verdict], our_results: dict[Path, CheckResult]
) -> None:
    files = fixture_files()

    disagreements = [
        _describe(path, fixture_verdicts[path], our_results[path])
        for path in files
        if our_results[path].problem is not None
        or (
            our_results[path].has_error == fixture_verdicts[path].accepted
            and not _deliberate(fixture_verdicts[path], our_results[path])
        )
    ]

    assert not disagreements, (
        f"{len(disagreements)} of {len(files)} files: holodeck-lsp's error verdict differs "
        "from HoloDeck 0.7.1's\n\n" + "\n\n".join(disagreements)
    )


def test_valid_fixtures_are_accepted_by_holodeck(
    fixture_verdicts: dict[Path, Verdict],
) -> None:
    valid = REPO / "tests" / "fixtures" / "valid"

    rejected = {
        _show(path): verdict.error
        for path, verdict in fixture_verdicts.items()
        if path.is_relative_to(valid) and not verdict.accepted
    }

    assert rejected == {}, "fixtures under tests/fixtures/valid that HoloDeck 0.7.1 refuses"
