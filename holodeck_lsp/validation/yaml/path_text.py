"""A path into a YAML document written as text, and read back:
`test_cases[0].turns[1].expected_tools[0].args.b`, with `['odd key']` for a key that is not
an identifier. Diagnostics, run events and the editor's placing of them share the form."""

from __future__ import annotations

import re
from ast import literal_eval
from typing import Any

from holodeck_lsp.validation.yaml.source_map import YamlPath

_PART = re.compile(
    r"\.?([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")\]"
)


def format_path(path: YamlPath) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif isinstance(part, str) and part.isidentifier():
            out += f".{part}" if out else part
        else:
            out += f"[{part!r}]"
    return out


def parse_path(text: str) -> YamlPath:
    """`test_cases[0].turns[1].expected_tools[0].args.b` as a path tuple."""
    parts: list[Any] = []
    position = 0
    while position < len(text):
        found = _PART.match(text, position)
        if found is None:
            raise ValueError(f"not a field path: {text!r}")
        name, index, quoted = found.groups()
        parts.append(name if name is not None else int(index) if index else literal_eval(quoted))
        position = found.end()
    return tuple(parts)
