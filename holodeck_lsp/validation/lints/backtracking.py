"""Can a regex backtrack exponentially in Python's `re`? (HL406)

`re` tries the ways a pattern can match one after another. When a repetition can match the
same text in more than one way, as in `(a+)+` (how the `a`s split into iterations) or
`(a|a)*` (which branch each `a` took), a text that almost matches has exponentially many
ways to fail, all of them tried.

The rule, on the pattern as `re` parses it: each character the pattern matches is a
position (a set of characters); an edge joins two positions that can match one after the
other, counted once per way the pattern allows (`(a+)+` joins `a` to `a` twice: the inner
loop and the outer one). The pattern is exponential exactly when some position can be left
and reached again along two different routes that read the same text: two edges between the
same positions, or a pair of routes that part and meet again while reading the same
characters (a cycle through a "same position" pair of the product of the graph with itself).
Repetitions of at most `UNROLLED` are written out, so bounded ones such as `(a|a){2}`
stay polynomial; lookarounds are analysed on their own; an atomic group or a possessive
repetition never gives back what it matched, so it counts as one opaque position.
"""

from __future__ import annotations

import functools
import re
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

if sys.version_info >= (3, 11):
    from re import _parser as sre_parse
else:
    import sre_parse

UNROLLED = 8  # repetitions bounded by at most this are written out
MAX_POSITIONS = 300  # past this the pattern is not analysed (no warning): check stays fast
# Characters beyond ASCII that the classes tell apart: a letter, a non-ASCII digit, a
# superscript (a word character that is no digit), a combining mark, spaces, CJK, an emoji.
_SAMPLES = "é\u0663²\u0301\u00a0\u2028中\U0001f600"
_IGNORECASE, _DOTALL, _ASCII = re.IGNORECASE, re.DOTALL, re.ASCII


_Counter = Counter[int]


class _Unsupported(Exception):
    """A construct the rule does not model: no warning."""


@dataclass
class _Node:
    """A piece of the pattern: the positions it can start and end on, each with its number of
    routes, and its number of routes through the empty text (0: it cannot match empty)."""

    first: Counter[int] = field(default_factory=Counter)
    last: Counter[int] = field(default_factory=Counter)
    empty: int = 0


def _empty() -> _Node:
    return _Node(empty=1)


@dataclass
class _Graph:
    alphabet: str  # the characters the pattern's classes are told apart on
    classes: list[int] = field(default_factory=list)  # per position: a bit per character
    follow: Counter[tuple[int, int]] = field(default_factory=Counter)
    opaque_bits: int = 0

    def position(self, matches: Any) -> _Node:
        bits = sum(1 << i for i, ch in enumerate(self.alphabet) if matches(ch))
        return self._add(bits)

    def opaque(self) -> _Node:
        """A position of its own kind, matching what no other position matches."""
        self.opaque_bits += 1
        return self._add(1 << (len(self.alphabet) + self.opaque_bits))

    def _add(self, bits: int) -> _Node:
        if len(self.classes) >= MAX_POSITIONS:
            raise _Unsupported
        self.classes.append(bits)
        spot = len(self.classes) - 1
        return _Node(Counter({spot: 1}), Counter({spot: 1}))

    def join(self, left: _Counter, right: _Counter) -> None:
        for p, m in left.items():
            for q, n in right.items():
                self.follow[(p, q)] += m * n


def _then(graph: _Graph, a: _Node, b: _Node) -> _Node:
    graph.join(a.last, b.first)
    return _Node(
        a.first + _scaled(b.first, a.empty), b.last + _scaled(a.last, b.empty), a.empty * b.empty
    )


def _either(a: _Node, b: _Node) -> _Node:
    return _Node(a.first + b.first, a.last + b.last, a.empty + b.empty)


def _scaled(counter: _Counter, times: int) -> _Counter:
    return Counter({k: v * times for k, v in counter.items()}) if times else Counter()


def _matcher(op: str, av: Any, flags: int) -> Any:
    """Whether one character matches a LITERAL, NOT_LITERAL, ANY or IN item."""
    ascii_only = bool(flags & _ASCII)
    if op == "LITERAL":
        base = chr(av).__eq__
    elif op == "NOT_LITERAL":
        base = chr(av).__ne__
    elif op == "ANY":
        return (lambda _ch: True) if flags & _DOTALL else "\n".__ne__
    elif op == "IN":
        base = _in_set(av, ascii_only)
    else:
        raise _Unsupported
    if not flags & _IGNORECASE:
        return base
    return lambda ch: base(ch) or base(ch.lower()) or base(ch.upper())


def _in_set(items: list[tuple[Any, Any]], ascii_only: bool) -> Any:
    negated = bool(items) and items[0][0].name == "NEGATE"
    tests = [_set_item(op.name, av, ascii_only) for op, av in items[negated:]]
    return lambda ch: any(test(ch) for test in tests) != negated


def _set_item(op: str, av: Any, ascii_only: bool) -> Any:
    if op == "LITERAL":
        return chr(av).__eq__
    if op == "RANGE":
        low, high = av
        return lambda ch: len(ch) == 1 and low <= ord(ch) <= high
    if op == "CATEGORY":
        return _category(av.name, ascii_only)
    raise _Unsupported


def _category(name: str, ascii_only: bool) -> Any:
    def digit(ch: str) -> bool:
        return ch.isdecimal() and (ch.isascii() or not ascii_only)

    def space(ch: str) -> bool:
        return ch in " \t\n\r\f\v" if ascii_only else ch.isspace()

    def word(ch: str) -> bool:
        return (ch.isalnum() and (ch.isascii() or not ascii_only)) or ch == "_"

    base = {"DIGIT": digit, "SPACE": space, "WORD": word}.get(name.rsplit("_", 1)[-1])
    if base is None:  # CATEGORY_LINEBREAK and the like
        raise _Unsupported
    return (lambda ch: not base(ch)) if "_NOT_" in name else base


def _sequence(graph: _Graph, items: Any, flags: int) -> _Node:
    node = _empty()
    for op, av in items:
        node = _then(graph, node, _item(graph, op.name, av, flags))
    return node


def _item(graph: _Graph, op: str, av: Any, flags: int) -> _Node:
    if op in ("LITERAL", "NOT_LITERAL", "ANY", "IN"):
        return graph.position(_matcher(op, av, flags))
    if op == "GROUPREF":  # whatever the group matched: any character, as far as we know
        return graph.position(lambda _ch: True)
    if op == "AT":
        return _empty()
    if op == "SUBPATTERN":
        _group, added, removed, inner = av
        return _sequence(graph, inner, (flags | added) & ~removed)
    if op == "BRANCH":
        node = _Node()
        for branch in av[1]:
            node = _either(node, _sequence(graph, branch, flags))
        return node
    if op == "GROUPREF_EXISTS":
        _group, yes, no = av
        return _either(_sequence(graph, yes, flags), _sequence(graph, no or [], flags))
    if op in ("ASSERT", "ASSERT_NOT"):
        _sequence(graph, av[1], flags)  # its own routes count; it matches no text
        return _empty()
    if op in ("MAX_REPEAT", "MIN_REPEAT"):
        low, high, inner = av
        return _repeat(graph, low, high, inner, flags)
    if op in ("ATOMIC_GROUP", "POSSESSIVE_REPEAT"):
        return graph.opaque()
    raise _Unsupported


def _repeat(graph: _Graph, low: int, high: int, inner: Any, flags: int) -> _Node:
    if high <= UNROLLED:
        # x{2,4} is x x (x (x)?)?: each optional copy nested in the one before.
        optional = _empty()
        for _ in range(high - low):
            optional = _either(_then(graph, _sequence(graph, inner, flags), optional), _empty())
        node = _empty()
        for _ in range(low):
            node = _then(graph, node, _sequence(graph, inner, flags))
        return _then(graph, node, optional)
    body = _sequence(graph, inner, flags)
    graph.join(body.last, body.first)  # the next iteration after this one
    return _Node(body.first, body.last, body.empty + (1 if low == 0 else 0))


def _components(nodes: list[Any], edges: dict[Any, list[Any]]) -> Iterator[list[Any]]:
    """Strongly connected components (Tarjan's algorithm, without recursion)."""
    index: dict[Any, int] = {}
    low: dict[Any, int] = {}
    stack: list[Any] = []
    on_stack: set[Any] = set()
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(edges.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(edges.get(successor, ()))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    yield component


def _ambiguous(graph: _Graph) -> bool:
    successors: dict[int, list[int]] = {}
    for p, q in graph.follow:
        successors.setdefault(p, []).append(q)
    positions = list(range(len(graph.classes)))
    component = {p: n for n, c in enumerate(_components(positions, successors)) for p in c}
    # Two edges between the same positions, on a cycle: two routes from p back to p.
    if any(n > 1 and component[p] == component[q] for (p, q), n in graph.follow.items()):
        return True
    # Pairs of routes reading the same characters: the product of the graph with itself. A
    # cycle through (p, p) stays in p's component on both sides.
    classes = graph.classes
    pairs: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for p in positions:
        for q in positions:
            if component[p] != component[q]:
                continue
            pairs[(p, q)] = [
                (p2, q2)
                for p2 in successors.get(p, ())
                if component[p2] == component[p]
                for q2 in successors.get(q, ())
                if component[q2] == component[p] and classes[p2] & classes[q2]
            ]
    for members in _components(list(pairs), pairs):
        same = [p == q for p, q in members]
        if any(same) and not all(same):
            return True  # two routes part at (p, p) and meet again: two routes p -> p
    return False


def _alphabet(parsed: Any) -> str:
    """ASCII, samples of other kinds of characters, and every character the pattern names
    (with its other case)."""
    chars = {chr(i) for i in range(128)} | set(_SAMPLES)
    for code in _codes(parsed):
        ch = chr(code)
        chars.update((ch, ch.lower()[:1] or ch, ch.upper()[:1] or ch))
    return "".join(sorted(chars))


def _codes(items: Any) -> Iterator[int]:
    """The character codes of every literal and range bound in a parsed pattern."""
    for op, av in items:
        name = op.name
        if name in ("LITERAL", "NOT_LITERAL"):
            yield av
        elif name == "RANGE":
            yield from av
        elif name == "IN":
            yield from _codes(av)
        elif name == "BRANCH":
            for branch in av[1]:
                yield from _codes(branch)
        elif name == "GROUPREF_EXISTS":
            yield from _codes(av[1])
            yield from _codes(av[2] or [])
        elif name in ("SUBPATTERN", "MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            yield from _codes(av[-1])
        elif name in ("ASSERT", "ASSERT_NOT"):
            yield from _codes(av[1])
        elif name == "ATOMIC_GROUP":
            yield from _codes(av)


@functools.lru_cache(maxsize=1024)
def backtracks_exponentially(pattern: str) -> bool:
    """Whether ``pattern`` (which compiles) can take exponential time in `re`."""
    try:
        parsed = sre_parse.parse(pattern)
        graph = _Graph(_alphabet(parsed))
        _sequence(graph, parsed, parsed.state.flags)
        return _ambiguous(graph)
    except (_Unsupported, re.error, RecursionError):
        return False
