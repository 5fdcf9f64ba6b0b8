"""Map a character of a YAML string's *value* back to its place in the source.

A regex error at value index 7 of `"\\d+(x"` is not at column start+7: quotes, escapes,
`''` in single quotes and line folding all shift it. We replay the scalar's source,
emitting each value character with the position it came from, and use the result only
when it reproduces the parsed value exactly (otherwise the caller falls back to the
whole scalar).
"""

from __future__ import annotations

from holodeck_lsp.validation.yaml.source_map import Span

_SIMPLE_ESCAPES = {
    "0": "\0",
    "a": "\a",
    "b": "\b",
    "t": "\t",
    "\t": "\t",
    "n": "\n",
    "v": "\v",
    "f": "\f",
    "r": "\r",
    "e": "\x1b",
    " ": " ",
    '"': '"',
    "/": "/",
    "\\": "\\",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}

Point = tuple[int, int]


def _source_chars(lines: list[str], span: Span) -> list[tuple[str, Point]]:
    out: list[tuple[str, Point]] = []
    for line in range(span.line, min(span.end_line, len(lines) - 1) + 1):
        text = lines[line]
        start = span.col if line == span.line else 0
        end = span.end_col if line == span.end_line else len(text)
        out.extend((text[c], (line, c)) for c in range(start, min(end, len(text))))
        if line != span.end_line:
            out.append(("\n", (line, len(text))))
    return out


def _fold_break(chars: list[tuple[str, Point]], i: int, out: list[tuple[str, Point]]) -> int:
    """At a line break inside a flow scalar: one break is a space, n breaks are n-1 newlines."""
    breaks = 0
    first = chars[i][1]
    while i < len(chars) and chars[i][0] in " \t\n":
        if chars[i][0] == "\n":
            breaks += 1
        i += 1
    out.extend([("\n", first)] * (breaks - 1) if breaks > 1 else [(" ", first)])
    return i


def _trim_trailing_blanks(out: list[tuple[str, Point]]) -> None:
    while out and out[-1][0] in " \t":
        out.pop()


def _flow(chars: list[tuple[str, Point]], style: str | None) -> list[tuple[str, Point]]:
    body = chars[1:-1] if style in ("'", '"') else chars
    out: list[tuple[str, Point]] = []
    i = 0
    while i < len(body):
        ch, pos = body[i]
        if ch == "\n":
            _trim_trailing_blanks(out)
            i = _fold_break(body, i, out)
        elif style == "'" and ch == "'" and i + 1 < len(body) and body[i + 1][0] == "'":
            out.append(("'", pos))
            i += 2
        elif style == '"' and ch == "\\" and i + 1 < len(body):
            code = body[i + 1][0]
            if code in _SIMPLE_ESCAPES:
                out.append((_SIMPLE_ESCAPES[code], pos))
                i += 2
            elif code in _HEX_ESCAPES:
                width = _HEX_ESCAPES[code]
                digits = "".join(c for c, _ in body[i + 2 : i + 2 + width])
                out.append((chr(int(digits, 16)), pos))
                i += 2 + width
            elif code == "\n":  # an escaped line break joins the lines
                i += 2
                while i < len(body) and body[i][0] in " \t":
                    i += 1
            else:
                out.append((ch, pos))
                i += 1
        else:
            out.append((ch, pos))
            i += 1
    return out


def _block(lines: list[str], span: Span) -> list[tuple[str, Point]]:
    # Literal lines only; a folded scalar maps line by line too when it verifies.
    out: list[tuple[str, Point]] = []
    content = [n for n in range(span.line + 1, min(span.end_line + 1, len(lines)))]
    indents = [len(lines[n]) - len(lines[n].lstrip(" ")) for n in content if lines[n].strip()]
    indent = min(indents) if indents else 0
    for n in content:
        for c in range(indent, len(lines[n])):
            out.append((lines[n][c], (n, c)))
        out.append(("\n", (n, len(lines[n]))))
    return out


def value_position(
    lines: list[str], span: Span, style: str | None, value: str, index: int
) -> Span | None:
    """The one-character span of ``value[index]`` in the source, if it can be traced."""
    if style in ("|", ">"):
        traced = _block(lines, span)
        if "".join(c for c, _ in traced).rstrip("\n") != value.rstrip("\n"):
            return None
    else:
        traced = _flow(_source_chars(lines, span), style)
        if "".join(c for c, _ in traced) != value:
            return None
    if not traced:
        return None
    if index >= len(traced):  # the error is at the end of the pattern: after its last char
        line, col = traced[-1][1]
        return Span(line, col + 1, line, col + 1)
    line, col = traced[index][1]
    return Span(line, col, line, col + 1)
