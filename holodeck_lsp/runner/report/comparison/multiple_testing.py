"""Many turns tested at once: a 400-turn suite whose turns all stay as they were still gives
some turn p < 0.05 by chance. Adjusted p-values keep the gate's false alarms at its level.

- Holm (1979), step-down: the k-th smallest of T p-values times (T - k + 1), never below the
  one before; rejecting those below alpha keeps the chance of any false alarm (the
  family-wise error) at most alpha, whatever the dependence between turns.
- Benjamini and Hochberg (1995), step-up: the k-th smallest times T / k, never above the one
  after; rejecting those below alpha keeps the expected share of false alarms among the
  turns flagged (the false discovery rate) at most alpha, for independent or positively
  dependent tests (Benjamini and Yekutieli 2001), as turns of one agent are. When nothing
  changed the two are the same promise (any alarm is a false one); when something did,
  Benjamini-Hochberg flags more of the turns that regressed.

Both as statsmodels' `multipletests` gives them (`holm`, `fdr_bh`): pure functions here, so
`compare` needs no numerical library.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from holodeck_lsp.models.comparison import Correction


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's adjusted p-values, in the order given."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg's adjusted p-values (q-values), in the order given."""
    count = len(p_values)
    order = sorted(range(count), key=lambda i: p_values[i], reverse=True)
    adjusted = [1.0] * count
    running = 1.0
    for place, i in enumerate(order):
        rank = count - place  # 1 for the smallest
        running = min(running, count * p_values[i] / rank)
        adjusted[i] = running
    return adjusted


CORRECTIONS: dict[Correction, Callable[[Sequence[float]], list[float]]] = {
    "bh": benjamini_hochberg,
    "holm": holm,
}
CORRECTION_NAMES: dict[Correction, str] = {"bh": "Benjamini-Hochberg", "holm": "Holm"}


def correction_named(name: str) -> Correction:
    """`--correction NAME` (the command line offers only these)."""
    for correction in CORRECTIONS:
        if correction == name:
            return correction
    raise ValueError(f"no correction {name!r}: bh or holm")
