"""`holodeck-lsp merge`: the JSON reports of shards joined into one, in suite order,
refusing reports of another suite, missing or repeated shards."""

from __future__ import annotations

from pathlib import Path

from holodeck_lsp.models.test_result import RepeatedCase, TestReport, TestResult
from holodeck_lsp.runner.collect.selection import parse_shard
from holodeck_lsp.runner.report.report_reading import (
    CASE_INDEXES,
    SUITE_KEY,
    ReportError,
    count,
    read_report,
    suite_positions,
)
from holodeck_lsp.runner.score.rollup import summarize

JUDGE_PREFIX = "judge_"  # environment keys counting judge calls and tokens


class MergeError(ReportError):
    """The reports cannot be merged; the message says why, naming the file(s)."""


Loaded = tuple[Path, TestReport]
Shard = tuple[Path, int, int]  # a report, and the shard I/N it holds


_SHOWN = 10  # missing shards named in an error; the environment keeps them all


def _count(path: Path, key: str, raw: str) -> int:
    try:
        return count(key, raw)
    except ValueError as exc:
        raise MergeError(f"{path}: {exc}") from None


def _indexes(report: TestReport, path: Path) -> list[int]:
    try:
        return suite_positions(report)
    except ValueError as exc:
        raise MergeError(f"{path}: {exc}") from None


def _same_suite(reports: list[Loaded]) -> None:
    if len({r.agent_name for _, r in reports}) > 1:
        which = ", ".join(f"{p} ({r.agent_name!r})" for p, r in reports)
        raise MergeError(f"reports are of different agents: {which}")
    digests = {r.environment.get(SUITE_KEY) for _, r in reports}
    if len(digests) > 1:
        which = ", ".join(f"{p} ({r.environment.get(SUITE_KEY, 'none')})" for p, r in reports)
        raise MergeError(f"reports are of different test suites (suite digest): {which}")


def _shards(reports: list[Loaded]) -> list[Shard]:
    """The shard of each sharded report (unsharded reports are whole runs), validated:
    `run` writes them, but a report is a file anyone can edit."""
    shards = []
    for path, report in reports:
        raw = report.environment.get("shard")
        if raw is not None:
            try:
                index, total = parse_shard(raw, f"{path}: shard")
            except ValueError as exc:
                raise MergeError(str(exc)) from None
            shards.append((path, index, total))
    return shards


def _complete_shards(shards: list[Shard]) -> None:
    """Every shard I/N of the run is there, once."""
    if len({total for _, _, total in shards}) > 1:
        which = ", ".join(f"{p} ({i}/{n})" for p, i, n in shards)
        raise MergeError(f"the reports split the suite into different numbers of shards: {which}")
    seen: dict[int, Path] = {}
    for path, index, total in shards:
        if index in seen:
            raise MergeError(f"shard {index}/{total} is in both {seen[index]} and {path}")
        seen[index] = path
    missing = missing_shards(shards)
    if missing:
        named = ", ".join(missing[:_SHOWN])
        if len(missing) > _SHOWN:
            named += f", ... ({len(missing)} in all)"
        given = ", ".join(f"{p} ({i}/{n})" for p, i, n in shards)
        raise MergeError(
            f"shard {named} is missing: given {given} (pass --allow-partial to merge anyway)"
        )


def missing_shards(shards: list[Shard]) -> list[str]:
    present = {index for _, index, _ in shards}
    totals = sorted({total for _, _, total in shards})
    return [f"{i}/{t}" for t in totals for i in range(1, t + 1) if i not in present]


def merge_reports(paths: list[Path], allow_partial: bool = False) -> TestReport:
    """One report from several (shards of one suite): results in suite order."""
    reports = [(path, read_report(path)) for path in paths]
    _same_suite(reports)
    shards = _shards(reports)
    if not allow_partial:
        _complete_shards(shards)
    placed: dict[int, TestResult] = {}
    placed_from: dict[int, Path] = {}
    repeats: dict[int, RepeatedCase] = {}
    for path, report in reports:
        indexes = _indexes(report, path)
        for index, result in zip(indexes, report.results, strict=True):
            if index in placed:
                raise MergeError(f"test_cases[{index}] is in both {placed_from[index]} and {path}")
            placed[index], placed_from[index] = result, path
        for index, repeat in zip(indexes, report.repeats, strict=False):
            repeats[index] = repeat
    order = sorted(placed)
    results = [placed[i] for i in order]
    first = reports[0][1]
    shared = {
        k: v
        for k, v in first.environment.items()
        if k not in ("shard", CASE_INDEXES) and all(r.environment.get(k) == v for _, r in reports)
    }
    # Judge calls and tokens add up over the shards.
    for key in {k for _, r in reports for k in r.environment if k.startswith(JUDGE_PREFIX)}:
        shared[key] = str(sum(_count(p, key, r.environment.get(key, "0")) for p, r in reports))
    # Shards run side by side: the merged run took as long as its slowest shard.
    duration = max(r.summary.total_duration_ms for _, r in reports)
    missing = missing_shards(shards)
    if missing:
        shared["missing_shards"] = ",".join(missing)
    stopped = [r for _, r in reports if r.interrupted]
    return TestReport(
        agent_name=first.agent_name,
        agent_config_path=first.agent_config_path,
        results=results,
        summary=summarize(results, duration),
        timestamp=min(r.timestamp for _, r in reports),
        holodeck_version=first.holodeck_version,
        environment={
            **shared,
            "merged_from": str(len(reports)),
            CASE_INDEXES: ",".join(map(str, order)),
        },
        interrupted=bool(stopped),
        stop_reason="; ".join(r.stop_reason for r in stopped if r.stop_reason) or None,
        not_run=[name for r in stopped for name in r.not_run],
        repeats=[repeats[i] for i in order if i in repeats],
    )
