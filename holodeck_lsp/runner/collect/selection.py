"""Which test cases run: `-k`, `--shard I/N` and `--limit N`, applied in that order."""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence

from holodeck_lsp.runner.collect.plan import PlannedCase

MAX_SHARDS = 10_000
# ASCII digits only, and few of them: int() of "²" fails, of 5,000 digits is refused.
_SHARD = re.compile(r"\s*([0-9]{1,18})\s*/\s*([0-9]{1,18})\s*")


def parse_shard(text: str, what: str = "--shard") -> tuple[int, int]:
    """`I/N` with 1 <= I <= N <= MAX_SHARDS; raises ValueError, naming ``what``, otherwise."""
    found = _SHARD.fullmatch(text)
    if found is None:
        raise ValueError(f"{what} takes I/N (e.g. 2/4), got {text[:40]!r}")
    index, total = int(found[1]), int(found[2])
    if not 1 <= index <= total <= MAX_SHARDS:
        raise ValueError(f"{what} I/N needs 1 <= I <= N <= {MAX_SHARDS:,}, got {text!r}")
    return index, total


def shard_of(case: PlannedCase, total: int) -> int:
    """1-based shard of a case. Hashing the name keeps a case in its shard when others are
    added or removed; unnamed cases hash their position."""
    key = case.name if case.name is not None else f"#{case.index}"
    return zlib.crc32(key.encode()) % total + 1


def select(
    cases: Sequence[PlannedCase],
    keywords: Sequence[str] = (),
    shard: tuple[int, int] | None = None,
    limit: int | None = None,
) -> list[PlannedCase]:
    chosen = list(cases)
    if keywords:
        lowered = [k.lower() for k in keywords]
        chosen = [c for c in chosen if any(k in c.label.lower() for k in lowered)]
    if shard is not None:
        index, total = shard
        chosen = [c for c in chosen if shard_of(c, total) == index]
    if limit is not None:
        chosen = chosen[:limit]
    return chosen
