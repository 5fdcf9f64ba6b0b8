"""Which runs of a history to show: `--prompt-version`, `--model`, `--since`, then the
last N of what is left (`--last`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone

from holodeck_lsp.history.run_records import HistoryRun, parse_time


@dataclass(frozen=True)
class RunFilter:
    last: int | None = None
    since: datetime | None = None  # aware
    prompt_versions: tuple[str, ...] = ()
    models: tuple[str, ...] = ()

    def select(self, runs: Sequence[HistoryRun]) -> list[HistoryRun]:
        """The runs (oldest first) this filter keeps, oldest first."""
        kept = [
            run
            for run in runs
            if (not self.prompt_versions or run.prompt_version in self.prompt_versions)
            and (not self.models or run.model in self.models)
            and (self.since is None or _at_or_after(run, self.since))
        ]
        if self.last is not None:
            kept = kept[len(kept) - self.last :] if self.last else []
        return kept


def _at_or_after(run: HistoryRun, since: datetime) -> bool:
    moment = run.time
    return moment is not None and moment >= since


def parse_since(text: str) -> datetime:
    """`--since`: a date (midnight UTC) or an ISO 8601 time (UTC when it names no offset);
    raises ValueError."""
    moment = parse_time(text)
    if moment is None:
        raise ValueError(f"--since wants a date or an ISO 8601 time, got {text!r}")
    return moment.astimezone(timezone.utc)
