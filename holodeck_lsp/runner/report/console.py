"""What `run` prints on the terminal besides progress: the reliability line of
`--repeat`."""

from __future__ import annotations

from holodeck_lsp.models.test_result import RepeatedCase


def repeat_line(repeats: list[RepeatedCase]) -> str:
    """The reliability line printed after the summary."""
    k = max((r.attempts for r in repeats), default=0)
    every = sum(r.passed_attempts == r.attempts for r in repeats)
    some = sum(r.passed_attempts > 0 for r in repeats)
    flaky = [r.test_name or "?" for r in repeats if r.flaky]
    line = (
        f"repeat {k}: {every} of {len(repeats)} test case(s) passed every attempt, "
        f"{some} at least once; {len(flaky)} flaky"
    )
    return line + (f": {', '.join(flaky)}" if flaky else "")
