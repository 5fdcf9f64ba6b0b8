"""The one way to read nested data from outside: JSON text, or a value a client, a model
or user code handed over, refused past a depth before anything else recurses over it
(the JSON parser's own `RecursionError` is caught here, at the boundary).

Python's `json` parser recurses once per level and raises `RecursionError` somewhere
past a thousand; so do `jsonschema`'s check, `repr`, pydantic's serialiser and our own
walks, each at its own depth. A value from outside (a JSON file a YAML file names, a
model's or a service's reply, a tool's result, an agent's reply, the editor's settings)
may nest `MAX_DEPTH` levels, as YAML may (`validation/yaml/loader.py`, HL007); a file or
a message that carries such values (a report, an EvalRun, a recording, an events line, a
message of the editor's) may nest `MAX_FILE_DEPTH`, the depth pydantic's JSON parser
(which reads reports) stops at.
Past it, `TooDeep` (a ValueError, so a caller that refuses invalid JSON refuses this
too) says where; the caller turns it into one diagnostic or one sentence naming the file.

Standard library only.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_DEPTH = 64  # levels of lists and mappings in a value from outside
MAX_FILE_DEPTH = 200  # in a file or a message that carries such values
# A string (skipped whole: a run of plain characters, then escapes each with the run after
# it, so the engine keeps no state per character) or a bracket.
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')
_SCALARS = frozenset({str, int, float, bool, type(None)})
_CONTAINERS = (dict, list, tuple)


class TooDeep(ValueError):
    """Lists and mappings nested past ``limit``; where the limit is crossed: ``line`` and
    ``column`` (1-based) in a text, ``path`` (keys and indexes) in a value."""

    def __init__(self, limit: int, line: int | None = None, column: int | None = None,
                 path: tuple[str | int, ...] = ()) -> None:
        where = f" (line {line}, column {column})" if line is not None else ""
        super().__init__(f"lists and mappings nested more than {limit} levels deep{where}")
        self.limit = limit
        self.line = line
        self.column = column
        self.path = path


def loads(text: str | bytes, limit: int = MAX_DEPTH) -> Any:
    """``json.loads(text)``, refused with `TooDeep` past ``limit`` levels (raises
    ValueError, as `json.loads` does, for what is not JSON). Parsed first (in C), then its
    lists and mappings walked unless the text has too few brackets to nest that deep; the
    text is scanned for the place only when refused."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise _placed(text, limit) from None
    if _may_nest_past(text, limit):
        try:
            check_depth(value, limit)
        except TooDeep:
            raise _placed(text, limit) from None
    return value


def check_depth(value: Any, limit: int = MAX_DEPTH) -> None:
    """`TooDeep` (with its path) when ``value``'s lists, tuples and mappings nest past
    ``limit`` levels. Walked level by level, each list or mapping once per level however
    often it is referred to, so any depth, sharing or cycle is safe to ask about."""
    path = _path_past(value, limit)
    if path is not None:
        raise TooDeep(limit, path=path)


def _path_past(value: Any, limit: int) -> tuple[str | int, ...] | None:
    """The keys and indexes down to a list or mapping past ``limit`` levels, or None."""
    # Each level's lists and mappings by identity, each with where it is (its key and its
    # parent's entry).
    level: dict[int, tuple[Any, Any]] = (
        {id(value): (value, None)} if isinstance(value, _CONTAINERS) else {})
    depth = 1
    while level:
        if depth > limit:
            _, where = next(iter(level.values()))
            return _path(where)
        below: dict[int, tuple[Any, Any]] = {}
        for item, where in level.values():
            if isinstance(item, dict):
                keys: Any = item.keys()
                children: Any = item.values()
            else:
                keys, children = range(len(item)), item
            if _SCALARS.issuperset(map(type, children)):  # in C: most hold scalars only
                continue
            for key, child in zip(keys, children, strict=True):
                if isinstance(child, _CONTAINERS) and id(child) not in below:
                    below[id(child)] = (child, (key, where))
        level, depth = below, depth + 1
    return None


def _path(where: Any) -> tuple[str | int, ...]:
    keys = []
    while where is not None:
        key, where = where
        keys.append(key if isinstance(key, (str, int)) else repr(key))
    return tuple(reversed(keys))


def _may_nest_past(text: str | bytes, limit: int) -> bool:
    """False when ``text`` has too few brackets to nest past ``limit`` (counted in C)."""
    if isinstance(text, str):
        return text.count("[") + text.count("{") > limit
    return text.count(b"[") + text.count(b"{") > limit


def _placed(text: str | bytes, limit: int) -> TooDeep:
    """`TooDeep` at the first bracket of ``text`` past ``limit`` levels, as a line and a
    column of characters. Only strings and brackets are visited (strings whole)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    depth = 0
    for token in _TOKEN.finditer(text):
        first = token.group()[0]
        if first in "[{":
            depth += 1
            if depth > limit:
                at = token.start()
                return TooDeep(limit, text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at))
        elif first in "]}":
            depth -= 1
    return TooDeep(limit)
