"""Cutting a text to a length without leaving a piece of a mask behind: the mask is
dropped whole when the cut falls inside it (the secret it stands for was masked before
the cut, so no piece of the secret is left either)."""

from __future__ import annotations

MASK = "[REDACTED]"


def clip(text: str, limit: int, tail: str = "...") -> str:
    """``text`` when it fits in ``limit`` characters, else its start and ``tail``, at most
    ``limit`` characters in all."""
    if len(text) <= limit:
        return text
    keep = max(0, limit - len(tail))
    straddling = text.find(MASK, max(0, keep - len(MASK) + 1), keep + len(MASK) - 1)
    if 0 <= straddling < keep:
        keep = straddling
    return text[:keep] + tail
