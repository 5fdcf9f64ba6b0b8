"""Text-level damage to a YAML file: tabs, duplicated or re-indented lines, broken quoting."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from tests.differential.mutation_tree import pick

TextMutation = Callable[[str, random.Random], tuple[str, str] | None]


def _content_lines(text: str) -> list[int]:
    return [i for i, line in enumerate(text.split("\n")) if line.strip()]


def _edit_line(
    text: str, rng: random.Random, change: Callable[[str], str | None], what: str
) -> tuple[str, str] | None:
    lines = text.split("\n")
    candidates = [i for i in _content_lines(text) if change(lines[i]) not in (None, lines[i])]
    if not candidates:
        return None
    i = candidates[rng.randrange(len(candidates))]
    new = change(lines[i])
    assert new is not None
    lines[i] = new
    return "\n".join(lines), f"line {i + 1}: {what}"


def tab_indent(text: str, rng: random.Random) -> tuple[str, str] | None:
    return _edit_line(
        text, rng, lambda s: "\t" + s[2:] if s.startswith("  ") else None, "indent with a tab"
    )


def tab_after_colon(text: str, rng: random.Random) -> tuple[str, str] | None:
    return _edit_line(
        text, rng, lambda s: s.replace(": ", ":\t", 1) if ": " in s else None, "tab after ':'"
    )


def duplicate_line(text: str, rng: random.Random) -> tuple[str, str] | None:
    lines = text.split("\n")
    keyed = [i for i in _content_lines(text) if re.match(r"^\s*[\w-]+:", lines[i])]
    if not keyed:
        return None
    i = keyed[rng.randrange(len(keyed))]
    lines.insert(i + 1, lines[i])
    return "\n".join(lines), f"line {i + 1}: duplicated (duplicate key)"


def delete_line(text: str, rng: random.Random) -> tuple[str, str] | None:
    lines = text.split("\n")
    candidates = _content_lines(text)
    if not candidates:
        return None
    i = candidates[rng.randrange(len(candidates))]
    del lines[i]
    return "\n".join(lines), f"line {i + 1}: deleted"


def shift_indent(text: str, rng: random.Random) -> tuple[str, str] | None:
    if rng.random() < 0.5:
        return _edit_line(text, rng, lambda s: "  " + s, "indented two more spaces")
    return _edit_line(
        text, rng, lambda s: s[2:] if s.startswith("  ") else None, "dedented two spaces"
    )


def unquote(text: str, rng: random.Random) -> tuple[str, str] | None:
    def strip(s: str) -> str | None:
        m = re.match(r"^(\s*(?:- )?[\w-]+:\s*)([\"'])(.*)\2\s*$", s)
        return f"{m.group(1)}{m.group(3)}" if m else None

    return _edit_line(text, rng, strip, "value unquoted")


def break_quote(text: str, rng: random.Random) -> tuple[str, str] | None:
    return _edit_line(
        text,
        rng,
        lambda s: s.replace(": ", ': "', 1) if ": " in s else None,
        "opening quote never closed",
    )


def no_space_after_colon(text: str, rng: random.Random) -> tuple[str, str] | None:
    return _edit_line(
        text, rng, lambda s: s.replace(": ", ":", 1) if ": " in s else None, "no space after ':'"
    )


def comment_out(text: str, rng: random.Random) -> tuple[str, str] | None:
    return _edit_line(
        text,
        rng,
        lambda s: None if s.lstrip().startswith("#") else re.sub(r"^(\s*)", r"\1# ", s, count=1),
        "commented out",
    )


def odd_scalar_text(text: str, rng: random.Random) -> tuple[str, str] | None:
    word = pick(
        rng,
        [
            "yes",
            "No",
            "off",
            "ON",
            "~",
            "null",
            "0x10",
            "1e3",
            "010",
            "12:30",
            "2024-01-01",
            "*alias",
            "&anchor",
            "!!binary aGk=",
            "!custom x",
            "[",
            "{a",
            "|",
            ">-",
            "@at",
            "`tick",
            "%pct",
            "- item",
            "? q",
        ],
    )

    def change(s: str) -> str | None:
        m = re.match(r"^(\s*(?:- )?[\w-]+: ).+$", s)
        return f"{m.group(1)}{word}" if m else None

    return _edit_line(text, rng, change, f"value spelled {word!r}")


def whole_text(text: str, rng: random.Random) -> tuple[str, str] | None:
    kind = rng.randrange(5)
    if kind == 0:
        return "\ufeff" + text, "byte-order mark at the start"
    if kind == 1:
        return text.replace("\n", "\r\n"), "CRLF line ends"
    if kind == 2:
        return "---\n" + text + "---\nname: second\n", "a second YAML document"
    if kind == 3:
        return "", "emptied"
    return text + "\n\u00a0\n", "a line holding only a no-break space"


# Characters the two YAML readers (libyaml, pure PyYAML) may treat differently: line breaks
# beyond \n, controls, a stray byte-order mark, lone surrogates spelled as escapes.
ODD_CHARACTERS = [
    "\u2028",
    "\u2029",
    "\x85",
    "\r",
    "\x00",
    "\x07",
    "\x1b",
    "\x7f",
    "\ufeff",
    "\ufffe",
    "\U0001f600",
    "\u200b",
    "\u00a0",
    "\t",
    "\\ud800",
    "\\x00",
    "\\u2028",
    "\\N",
    "\\e",
    "\\q",
]


def odd_character(text: str, rng: random.Random) -> tuple[str, str] | None:
    """Put one odd character (or backslash escape) into a value, quoted or plain."""
    char = pick(rng, ODD_CHARACTERS)

    def change(s: str) -> str | None:
        m = re.match(r"^(\s*(?:- )?[\w-]+: )(.+)$", s)
        if not m:
            return None
        value = m.group(2)
        if rng.random() < 0.5:  # inside double quotes, where escapes mean something
            inner = value.strip("\"'")
            return f'{m.group(1)}"{inner[:3]}{char}{inner[3:]}"'
        return f"{m.group(1)}{value[:3]}{char}{value[3:]}"

    return _edit_line(text, rng, change, f"value holds {char!r}")


TEXTUAL: list[tuple[str, TextMutation, int]] = [
    ("tab-indent", tab_indent, 2),
    ("tab-after-colon", tab_after_colon, 2),
    ("duplicate-line", duplicate_line, 4),
    ("delete-line", delete_line, 4),
    ("shift-indent", shift_indent, 4),
    ("unquote", unquote, 4),
    ("break-quote", break_quote, 1),
    ("no-space", no_space_after_colon, 2),
    ("comment-out", comment_out, 2),
    ("odd-scalar", odd_scalar_text, 4),
    ("whole-text", whole_text, 1),
    ("odd-character", odd_character, 3),
]
