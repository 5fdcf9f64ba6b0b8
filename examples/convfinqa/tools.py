"""Function tools of the example: a lookup over a small table of figures, and arithmetic.

The figures (in thousands of dollars) belong to an invented company, Acme Corp.
"""

from __future__ import annotations

import csv
from pathlib import Path

TABLE_FILE = Path(__file__).parent / "data" / "financials.csv"


def _table() -> dict[str, dict[str, float]]:
    with TABLE_FILE.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return {row["metric"]: {k: float(v) for k, v in row.items() if k != "metric"} for row in rows}


def lookup(metric: str, year: str) -> float:
    """The value of `metric` (e.g. `operating_cash_flow`) in `year` (e.g. `2019`)."""
    table = _table()
    if metric not in table:
        raise KeyError(f"unknown metric {metric!r}; known: {', '.join(sorted(table))}")
    if str(year) not in table[metric]:
        raise KeyError(f"no {metric} for {year}")
    return table[metric][str(year)]


def subtract(a: float, b: float) -> float:
    """a - b."""
    return float(a) - float(b)


def divide(a: float, b: float) -> float:
    """a / b; raises ZeroDivisionError when b is zero."""
    return float(a) / float(b)
