"""One kept run as the history reads it: its metadata, and per test case the outcome of
every turn of every attempt. Compact (one letter per turn), so the index stores it whole
and a history of hundreds of runs loads in a blink."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from holodeck_lsp.history.case_keys import CaseKey, case_label
from holodeck_lsp.history.pass_rule import rule_passes

# A turn's outcome in one attempt, one letter each.
PASSED, FAILED, SKIPPED = "p", "f", "s"


@dataclass(frozen=True, slots=True)
class TurnOutcome:
    """One turn of one attempt of a test case, in one run."""

    case_key: CaseKey
    case_name: str | None
    case_index: int  # place in the suite
    turn_index: int
    attempt: int  # 0-based; always 0 without `--repeat`
    passed: bool
    skipped: bool  # the session broke before the turn (a skipped turn failed)


@dataclass(frozen=True, slots=True)
class CaseRecord:
    """A test case of one run: per attempt, one letter per turn (`p`, `f` or `s`) and the
    attempt's verdict (`p` or `f`)."""

    key: CaseKey
    name: str | None
    index: int  # place in the suite
    attempts: tuple[str, ...]
    verdicts: str  # one letter per attempt
    passed: bool  # the case's verdict in the run (by the run's pass rule with `--repeat`)

    @property
    def label(self) -> str:
        return case_label(self.name, self.index)

    def turn_passed(self, turn: int, share: float) -> bool | None:
        """The turn's verdict over the attempts by the pass rule ``share``; None when no
        attempt ran that turn."""
        ran = [letters[turn] for letters in self.attempts if turn < len(letters)]
        if not ran:
            return None
        return rule_passes(ran.count(PASSED), len(ran), share)


@dataclass(frozen=True, slots=True)
class HistoryRun:
    """One file of the history: the run's metadata and its test cases' outcomes."""

    path: Path
    run_id: str  # SHA-256 of the file's bytes: the run's identity, whatever its name
    timestamp: str  # the report's, as written (ISO 8601)
    agent_name: str
    made_by: str  # `holodeck-lsp 0.5.0 (HoloDeck 0.7.1)`, or `HoloDeck 0.7.1`
    prompt_version: str
    prompt_hash: str  # SHA-256 of the prompt's body
    model: str | None  # the agent's `model.name`
    git_commit: str | None
    pass_rule: str  # with `--repeat`: the rule of the case verdicts (`all` without)
    pass_share: float
    duration_ms: int
    tokens: int | None  # total tokens of every attempt; none if no result reported any
    interrupted: bool  # the run stopped before every selected case had finished
    cases: tuple[CaseRecord, ...]
    # The agent's configuration as the run recorded it (redacted), one line per field path
    # (`model.name` -> `"gpt-4o"`), the test cases as their count and digest.
    config: dict[str, str] = field(default_factory=dict, compare=False)

    @property
    def time(self) -> datetime | None:
        """The timestamp as an aware time (a time without an offset is taken as UTC);
        None when it is not ISO 8601."""
        return parse_time(self.timestamp)

    @property
    def repeat(self) -> int:
        """Attempts per test case (1 without `--repeat`)."""
        return max((len(case.attempts) for case in self.cases), default=1)

    @property
    def passed_cases(self) -> int:
        return sum(case.passed for case in self.cases)

    @property
    def attempts(self) -> int:
        return sum(len(case.attempts) for case in self.cases)

    @property
    def passed_attempts(self) -> int:
        return sum(case.verdicts.count(PASSED) for case in self.cases)

    def turns(self) -> Iterator[TurnOutcome]:
        """Every turn of every attempt of every case, in suite order."""
        for case in self.cases:
            for attempt, letters in enumerate(case.attempts):
                for turn, letter in enumerate(letters):
                    yield TurnOutcome(
                        case.key,
                        case.name,
                        case.index,
                        turn,
                        attempt,
                        letter == PASSED,
                        letter == SKIPPED,
                    )

    def to_data(self) -> dict[str, Any]:
        """A JSON-able form, read back by `from_data` (the index stores it)."""
        return {
            "path": str(self.path),
            "run_id": self.run_id,
            "timestamp": self.timestamp,
            "agent_name": self.agent_name,
            "made_by": self.made_by,
            "prompt_version": self.prompt_version,
            "prompt_hash": self.prompt_hash,
            "model": self.model,
            "git_commit": self.git_commit,
            "pass_rule": self.pass_rule,
            "pass_share": self.pass_share,
            "duration_ms": self.duration_ms,
            "tokens": self.tokens,
            "interrupted": self.interrupted,
            # Column by column: a quick load for a history of hundreds of 1,000-case runs.
            "cases": {
                "kinds": [c.key[0] for c in self.cases],
                "values": [c.key[1] for c in self.cases],
                "nths": [c.key[2] for c in self.cases],
                "names": [c.name for c in self.cases],
                "indexes": [c.index for c in self.cases],
                "attempts": [_ATTEMPTS.join(c.attempts) for c in self.cases],
                "verdicts": [c.verdicts for c in self.cases],
                "passed": "".join("1" if c.passed else "0" for c in self.cases),
            },
            "config": self.config,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any], path: Path) -> HistoryRun:
        """`to_data`'s form back, at ``path``; raises (KeyError, TypeError, ValueError) on
        anything else."""
        return cls(
            path=path,
            run_id=str(data["run_id"]),
            timestamp=str(data["timestamp"]),
            agent_name=str(data["agent_name"]),
            made_by=str(data["made_by"]),
            prompt_version=str(data["prompt_version"]),
            prompt_hash=str(data["prompt_hash"]),
            model=_optional_text(data["model"]),
            git_commit=_optional_text(data["git_commit"]),
            pass_rule=str(data["pass_rule"]),
            pass_share=float(data["pass_share"]),
            duration_ms=int(data["duration_ms"]),
            tokens=None if data["tokens"] is None else int(data["tokens"]),
            interrupted=bool(data["interrupted"]),
            cases=_cases(data["cases"]),
            config={str(k): str(v) for k, v in dict(data.get("config") or {}).items()},
        )


_ATTEMPTS = ","  # between the attempts of a case, in the index's column


def _column(columns: dict[str, Any], name: str, types: set[type], size: int) -> list[Any]:
    column = columns[name]
    if not isinstance(column, list) or len(column) != size or not set(map(type, column)) <= types:
        raise ValueError(f"the index's column {name!r} is not one of {types} per case")
    return column


def _cases(columns: dict[str, Any]) -> tuple[CaseRecord, ...]:
    """The cases of `to_data`'s columns, each column's types checked at once (C loops: the
    index is read for every `history`)."""
    size = len(columns["kinds"])
    kinds = _column(columns, "kinds", {str}, size)
    if not set(kinds) <= {"name", "index"}:
        raise ValueError("the index's case keys are not names or places")
    keys = list(
        zip(
            kinds,
            _column(columns, "values", {str, int}, size),
            _column(columns, "nths", {int}, size),
            strict=True,
        )
    )
    joined = _column(columns, "attempts", {str}, size)
    if any(_ATTEMPTS in letters for letters in joined):  # a `--repeat` run
        attempts: list[tuple[str, ...]] = [tuple(letters.split(_ATTEMPTS)) for letters in joined]
    else:
        attempts = list(zip(joined))  # one attempt each
    passed = columns["passed"]
    if not isinstance(passed, str) or len(passed) != size:
        raise ValueError("the index's verdicts are not one per case")
    return tuple(
        map(
            CaseRecord,
            keys,
            _column(columns, "names", {str, type(None)}, size),
            _column(columns, "indexes", {int}, size),
            attempts,
            _column(columns, "verdicts", {str}, size),
            [flag == "1" for flag in passed],
        )
    )


def _optional_text(value: Any) -> str | None:
    return None if value is None else str(value)


def parse_time(text: str) -> datetime | None:
    """An ISO 8601 time as an aware time (UTC when it names no offset); None otherwise."""
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def display_time(text: str) -> str:
    """A run's time in UTC to the second (`2026-12-07 03:04:35`), or as written when it is
    not ISO 8601."""
    moment = parse_time(text)
    if moment is None:
        return text
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
