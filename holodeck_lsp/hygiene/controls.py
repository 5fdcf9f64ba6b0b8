"""Control characters made visible: a terminal, a log viewer or an editor shows `\\x1b`
instead of obeying an escape sequence (window title, clipboard, erased lines) or reordering
text (bidirectional overrides)."""

from __future__ import annotations

import re

# C0 but tab and newline, DEL, C1; the bidirectional embeddings, overrides and isolates
# (U+202A-202E, U+2066-2069) and the marks that steer them (U+200E, U+200F, U+061C); lone
# surrogates (a service's JSON may hold `\ud800`), which UTF-8 cannot even encode.
_BIDI = "\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c"
_CONTROL = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}\ud800-\udfff]")
# The same, but only what JSON leaves raw (it always escapes C0 itself).
_JSON_RAW = re.compile(f"[\x7f-\x9f{_BIDI}\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def escaped(match: re.Match[str]) -> str:
    """The matched character as Python writes it in a string: `\\x1b`, `\\u202e`."""
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with every control character but tab and newline written as an escape."""
    if _CONTROL.search(text) is None:  # the common case: one scan, no copy
        return text
    return _CONTROL.sub(escaped, text)


def encodable(text: str) -> str:
    """``text`` with its lone surrogates written as escapes: what UTF-8 can hold."""
    if text.isascii() or _SURROGATE.search(text) is None:
        return text
    return _SURROGATE.sub(escaped, text)


def visible_json(text: str) -> str:
    """JSON text whose DEL, C1 and bidirectional characters are `\\u` escapes (valid JSON;
    `json.dumps` escapes C0 itself but leaves these raw)."""
    if _JSON_RAW.search(text) is None:
        return text
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
