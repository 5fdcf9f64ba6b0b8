"""Plain-text chunking by paragraphs, as HoloDeck's vector store tool chunks its files.

Each line longer than the limit is halved at the separator nearest its middle (line
breaks first, then sentence ends, other punctuation, spaces, and finally anywhere), then
whole lines are packed into chunks while they fit; a short last chunk is folded into the
one before it. HoloDeck accepts `chunk_overlap` but its chunker has no overlap, so
neither has this one: consecutive chunks share nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from holodeck_lsp.runner.tools.retrieval.ingest.tokens import estimate_tokens

DEFAULT_CHUNK_SIZE = 512
# Tried in order until one of them splits a line; None cuts at the middle.
_SEPARATORS: tuple[tuple[str, ...] | None, ...] = (
    ("\n", "\r"),
    (".",),
    ("?", "!"),
    (";",),
    (":",),
    (",",),
    (")", "]", "}"),
    (" ",),
    ("-",),
    None,
)
_PATTERNS = {seps: re.compile("|".join(map(re.escape, seps))) for seps in _SEPARATORS if seps}

Counter = Callable[[str], int]


def _cut_point(text: str, separators: tuple[str, ...] | None) -> int:
    """Where to halve `text`: just after the separator closest to its middle, or -1."""
    middle = len(text) // 2
    if separators is None:
        return middle
    if len(text) <= 2 or not any(s in text for s in separators):
        return -1
    best, best_distance = -1, middle
    for match in _PATTERNS[separators].finditer(text):
        distance = abs(middle - match.end())
        if distance < best_distance:
            best, best_distance = match.end(), distance
        elif match.end() > middle:
            break
    return best


def _halve(
    text: str, limit: int, separators: tuple[str, ...] | None, count: Counter
) -> tuple[list[str], bool]:
    """`text` trimmed, split in halves recursively until each fits; (pieces, cut twice?)."""
    if not text:
        return [], False
    text = text.strip()  # a blank line stays, as an empty piece
    if count(text) <= limit:
        return [text], False
    cut = _cut_point(text, separators)
    if not 0 < cut < len(text):
        return [text], False
    pieces: list[str] = []
    deeper = False
    for half in (text[:cut], text[cut:]):
        more, did = _halve(half, limit, separators, count)
        pieces.extend(more)
        deeper = deeper or did
    # As HoloDeck's chunker does: a cut counts as a split only when a half was cut again,
    # so a single cut lets the next kind of separator work on the halves too.
    return pieces, deeper


def _split_line(line: str, limit: int, count: Counter) -> list[str]:
    pieces: list[str] = []
    for separators in _SEPARATORS:
        if not pieces:
            pieces, split = _halve(line.replace("\r\n", "\n"), limit, separators, count)
        else:
            parts: list[str] = []
            split = False
            for piece in pieces:
                more, did = _halve(piece, limit, separators, count)
                parts.extend(more)
                split = split or did
            pieces = parts
        if split:
            break
    return pieces


def _pack(lines: list[str], limit: int, count: Counter) -> list[str]:
    chunks: list[str] = []
    current: list[str] = []
    for line in lines:
        if current and count("".join(current)) + count(line) + 1 >= limit:
            chunks.append("".join(current).strip())
            current = []
        current.append(line + "\n")
    if current:
        chunks.append("".join(current).strip())
    if len(chunks) > 1 and count(chunks[-1]) < limit / 4:
        last, before = chunks[-1].split(" "), chunks[-2].split(" ")
        if len(last) + len(before) <= limit:  # words, not tokens, as HoloDeck counts here
            chunks[-2:] = [(" ".join(before) + "\n" + " ".join(last)).strip()]
    return chunks


def split_paragraphs(
    text: str, chunk_size: int = DEFAULT_CHUNK_SIZE, count: Counter = estimate_tokens
) -> list[str]:
    """`text` in chunks of at most about `chunk_size` tokens; blank chunks dropped."""
    lines: list[str] = []
    for line in text.split("\n"):
        lines.extend(_split_line(line, chunk_size, count))
    return [chunk for chunk in _pack(lines, chunk_size, count) if chunk.strip()]
