"""Untrusted text in Markdown: anything read from an agent file, a report, a model, a tool
or a service. It reaches Markdown only through these two functions, as an inline code span:
nothing in it is interpreted, no image loads, no link is live, no @mention notifies, no HTML
renders, and it cannot end its line, its paragraph or its table cell."""

from __future__ import annotations

import re

from holodeck_lsp.hygiene.clipping import clip
from holodeck_lsp.hygiene.controls import visible

_TICKS = re.compile("`+")


def code_span(text: str | None, limit: int | None = None) -> str:
    """``text`` on one line, cut to ``limit`` characters, between backtick fences longer
    than any run of backticks in it (so none closes the span early); nothing for no text."""
    if not text:
        return ""
    flat = " ".join(visible(text).split())  # a blank line would end the span, and the paragraph
    if limit is not None:
        flat = clip(flat, limit)
    if not flat:
        return ""
    fence = "`" * (max((len(run) for run in _TICKS.findall(flat)), default=0) + 1)
    # A space each side keeps a leading or trailing backtick off the fence (the renderer
    # strips exactly one space from each side).
    pad = " " if flat[0] in "` " or flat[-1] in "` " else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def code_cell(text: str | None, limit: int | None = None) -> str:
    """`code_span`, fit for a table cell (where `|` must be escaped, even in code)."""
    return code_span(text, limit).replace("|", "\\|")
