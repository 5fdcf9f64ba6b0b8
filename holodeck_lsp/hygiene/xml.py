"""Text that XML 1.0 can hold: the characters it forbids (C0 but tab, newline and carriage
return; U+FFFE, U+FFFF; lone surrogates) written as visible escapes, so a reply full of
control characters still gives a well-formed document."""

from __future__ import annotations

import re

_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    if _FORBIDDEN.search(text) is None:
        return text
    return _FORBIDDEN.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                          else f"\\u{ord(m.group()):04x}", text)
