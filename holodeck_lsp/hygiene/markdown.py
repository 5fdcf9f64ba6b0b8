"""Untrusted text (model replies, tool results, names from a YAML file) in Markdown as an
inline code span: nothing in it is interpreted, no image loads, no link is live."""

from __future__ import annotations

import re

from holodeck_lsp.hygiene.clipping import clip
from holodeck_lsp.hygiene.controls import visible

_TICKS = re.compile("`+")


def code_span(text: str) -> str:
    """``text`` on one line, between backtick fences longer than any run of backticks in
    it (so none closes the span early); empty text gives an empty string."""
    flat = " ".join(visible(text).split())  # a blank line would end the span, and the paragraph
    if not flat:
        return ""
    fence = "`" * (max((len(run) for run in _TICKS.findall(flat)), default=0) + 1)
    # A space each side keeps a leading or trailing backtick off the fence (the renderer
    # strips exactly one space from each side).
    pad = " " if flat[0] in "` " or flat[-1] in "` " else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def code_cell(text: str | None, limit: int | None = None) -> str:
    """Untrusted text as code on one line, cut to ``limit`` characters, fit for a table
    cell (where `|` must be escaped, even in code); nothing for no text."""
    if not text:
        return ""
    flat = " ".join(text.split())
    return code_span(clip(flat, limit) if limit is not None else flat).replace("|", "\\|")
