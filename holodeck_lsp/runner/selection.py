"""Which test cases run: `-k`, `--shard I/N` and `--limit N`, applied in that order."""

from __future__ import annotations

import zlib
from collections.abc import Sequence

from holodeck_lsp.runner.plan import PlannedCase


def parse_shard(text: str) -> tuple[int, int]:
    """`I/N` with 1 <= I <= N; raises ValueError otherwise."""
    left, sep, right = text.partition("/")
    if not sep or not left.strip().isdigit() or not right.strip().isdigit():
        raise ValueError(f"--shard takes I/N (e.g. 2/4), got {text!r}")
    index, total = int(left), int(right)
    if total < 1 or not 1 <= index <= total:
        raise ValueError(f"--shard I/N needs 1 <= I <= N, got {text!r}")
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
