"""Text that XML 1.0 can hold: the characters it forbids (C0 but tab, newline and carriage
return; U+FFFE, U+FFFF; lone surrogates) written as visible escapes, so a reply full of
control characters still gives a well-formed document."""

from __future__ import annotations

import re

from holodeck_lsp.hygiene.controls import escaped

_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    if _FORBIDDEN.search(text) is None:
        return text
    return _FORBIDDEN.sub(escaped, text)
