"""Where each key and value of a YAML document stands in its text.

A path is the tuple of mapping keys and list indices from the root, e.g.
``("test_cases", 3, "turns", 2, "input")``. Positions are 0-based, in code points.
A table may be built when it is first asked for: a file without a problem never needs
one, and a large suite's table costs a third of its parse.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Literal, NamedTuple

YamlPath = tuple[Any, ...]  # keys and indices from the document root
_building = threading.RLock()  # a table may be built from another map (incremental.py)
NodeKind = Literal["scalar", "sequence", "mapping"]


class Span(NamedTuple):
    """A range of text; a tuple, since a large suite has a hundred thousand of them."""

    line: int
    col: int
    end_line: int
    end_col: int

    def contains(self, line: int, col: int) -> bool:
        return (self.line, self.col) <= (line, col) <= (self.end_line, self.end_col)


class NodeInfo(NamedTuple):
    key: Span | None  # the key that introduces this value, if it is a mapping value
    value: Span
    kind: NodeKind
    style: str | None  # scalar style: None (plain), "'", '"', "|", ">"


class SourceMap:
    """YamlPath -> node positions, with lookups that tolerate paths the YAML does not have.
    Given the table, or what builds it on first use (``build``)."""

    def __init__(self, nodes: dict[YamlPath, NodeInfo] | None = None,
                 build: Callable[[], dict[YamlPath, NodeInfo]] | None = None) -> None:
        self._table = nodes
        self._build = build

    @property
    def _nodes(self) -> dict[YamlPath, NodeInfo]:
        table = self._table
        if table is None:
            with _building:  # once, whichever thread asks first
                table = self._table
                if table is None:
                    build = self._build
                    table = self._table = build() if build is not None else {}
                    self._build = None  # what it was built from is freed
        return table

    def __contains__(self, path: YamlPath) -> bool:
        return self.get(path) is not None

    def get(self, path: YamlPath) -> NodeInfo | None:
        return self._nodes.get(path)

    def paths(self) -> list[YamlPath]:
        return list(self._nodes)

    def items(self) -> list[tuple[YamlPath, NodeInfo]]:
        """Every path with its node (a copy of the table)."""
        return [(path, info) for path in self.paths() if (info := self.get(path)) is not None]

    def nearest(self, path: YamlPath) -> tuple[YamlPath, NodeInfo] | None:
        """The node at ``path``, else at its longest prefix that exists."""
        for end in range(len(path), -1, -1):
            info = self.get(path[:end])
            if info is not None:
                return path[:end], info
        return None

    def path_at(self, line: int, col: int) -> YamlPath | None:
        """The deepest path whose key or value contains the position."""
        best: YamlPath | None = None
        for path, info in self._nodes.items():
            hit = info.value.contains(line, col) or (
                info.key is not None and info.key.contains(line, col)
            )
            if hit and (best is None or len(path) > len(best)):
                best = path
        return best
