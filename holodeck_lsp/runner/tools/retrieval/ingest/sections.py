"""Markdown split by its headings, as HoloDeck's structure-aware chunker does: the text
before the first heading, then one section per heading (the heading line included) down
to the next heading of any depth, each knowing the titles of the headings above it.
A section longer than the limit is cut between sentences; `chunking_strategy: token`
cuts fixed windows instead, `chunk_overlap` tokens apart.

Not done (documented): numbering patterns of `document_domain` (`(a)`, `Sec. 2`) as
implicit headings, definition and cross-reference extraction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from holodeck_lsp.runner.tools.retrieval.ingest.tokens import CHARS_PER_TOKEN, estimate_tokens

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$", re.MULTILINE)
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_ID_WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class Section:
    text: str
    parents: list[str]  # titles of the headings above, outermost first
    title: str = ""  # its own heading, "" for the text before the first heading
    level: int = 0
    section_id: str = field(default="")


def section_id(parents: list[str], title: str, index: int) -> str:
    """A stable id from the heading path: `chapter_1.scope`; `chunk_N` without a heading."""
    if not title:
        return f"chunk_{index}"
    return ".".join("_".join(_ID_WORD.findall(t.lower())) or "section" for t in [*parents, title])


def _headings(markdown: str, depth: int) -> list[tuple[int, str, int]]:
    masked = _FENCE.sub(lambda m: " " * len(m.group(0)), markdown)  # no headings in code
    return [
        (len(m.group(1)), m.group(2).strip(), m.start())
        for m in _HEADING.finditer(masked)
        if len(m.group(1)) <= depth
    ]


def split_sections(markdown: str, depth: int = 6) -> list[Section]:
    headings = _headings(markdown, depth)
    sections: list[Section] = []
    first = headings[0][2] if headings else len(markdown)
    preamble = markdown[:first].strip()
    if preamble:
        sections.append(Section(preamble, []))
    stack: list[tuple[int, str]] = []
    for i, (level, title, start) in enumerate(headings):
        while stack and stack[-1][0] >= level:
            stack.pop()
        end = headings[i + 1][2] if i + 1 < len(headings) else len(markdown)
        sections.append(Section(markdown[start:end].strip(), [t for _, t in stack], title, level))
        stack.append((level, title))
    return sections


def _by_sentences(text: str, limit: int) -> list[str]:
    pieces: list[str] = []
    current: list[str] = []
    size = 0
    for sentence in _SENTENCE_END.split(text):
        tokens = estimate_tokens(sentence)
        if current and size + tokens > limit:
            pieces.append(" ".join(current))
            current, size = [], 0
        current.append(sentence)
        size += tokens
    if current:
        pieces.append(" ".join(current))
    return pieces


def structure_chunks(markdown: str, max_tokens: int, depth: int = 6) -> list[Section]:
    """Sections, the long ones cut between sentences; each with its id."""
    out: list[Section] = []
    for section in split_sections(markdown, depth):
        pieces = (
            [section.text]
            if estimate_tokens(section.text) <= max_tokens
            else _by_sentences(section.text, max_tokens)
        )
        for piece in pieces:
            index = len(out)
            ident = section_id(section.parents, section.title, index)
            out.append(Section(piece, section.parents, section.title, section.level, ident))
    return out


def token_chunks(text: str, max_tokens: int, overlap: int) -> list[Section]:
    """Fixed windows of `max_tokens`, each starting `max_tokens - overlap` after the last."""
    width = max_tokens * CHARS_PER_TOKEN
    step = max(1, (max_tokens - overlap) * CHARS_PER_TOKEN)
    out: list[Section] = []
    for start in range(0, max(len(text), 1), step):
        piece = text[start : start + width].strip()
        if piece:
            out.append(Section(piece, [], section_id=f"chunk_{len(out)}"))
        if start + width >= len(text):
            break
    return out
