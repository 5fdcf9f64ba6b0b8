"""Can a regex backtrack exponentially in Python's `re`? (HL406)

`re` tries the ways a pattern can match one after another. When a repetition can match the
same text in more than one way, as in `(a+)+` (how the `a`s split into iterations) or
`(a|a)*` (which branch each `a` took), a text that almost matches has exponentially many
ways to fail, all of them tried.

The rule, on the pattern as `re` parses it: each character the pattern matches is a
position (a set of characters); an edge joins two positions that can match one after the
other, counted once per way the pattern allows (`(a+)+` joins `a` to `a` twice: the inner
loop and the outer one). The pattern is reported when some position can be left and
reached again along two different routes that read the same text: two edges between the
same positions, or a pair of routes that part and meet again while reading the same
characters (a cycle through a "same position" pair of the product of the graph with itself).
Characters are told apart on ASCII, samples of other kinds and those the pattern names; a
backreference counts as any one character.
Repetitions of at most `UNROLLED` are written out, so bounded ones such as `(a|a){2}`
stay polynomial; lookarounds are analysed on their own; an atomic group or a possessive
repetition never gives back what it matched, so it counts as one opaque position.

The analysis reads user input on every keystroke, so it has one budget of work
(`MAX_WORK` steps): every item of the pattern visited, every route counted, every edge
and every pair of positions walked spends from it, and past it the pattern gets no
warning. Only "one route" and "more than one" matter, so route counts stop at `_MANY`; a
repetition of something that reads no character (`(?:^){8}`, `(?:(?=a)){8}`) is built
once, not written out.
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from typing import Any

if sys.version_info >= (3, 11):
    from re import _parser as sre_parse
else:
    import sre_parse

UNROLLED = 8  # repetitions bounded by at most this are written out
# Past these the pattern is not analysed (no warning): the check stays fast.
MAX_WORK = 100_000  # steps of the whole analysis, parsing included
_PARSE_STEPS = 4  # per character of the pattern: what `re`'s parser costs, in steps
MAX_POSITIONS = 300
MAX_ALPHABET = 2_000  # characters told apart
MAX_LENGTH = 10_000  # characters of the pattern
_MANY = 2  # route counts saturate here: whether there is more than one is all that matters
# Characters beyond ASCII that the classes tell apart: a letter, a non-ASCII digit, a
# superscript (a word character that is no digit), a combining mark, spaces, CJK, an emoji.
_SAMPLES = "é\u0663²\u0301\u00a0\u2028中\U0001f600"
_IGNORECASE, _DOTALL, _ASCII = re.IGNORECASE, re.DOTALL, re.ASCII

# Positions to their number of routes (1 or _MANY); never changed once made.
_Routes = dict[int, int]
_NONE: _Routes = {}


class _Unsupported(Exception):
    """A construct the rule does not model, or a limit reached: no warning."""


class _Budget:
    """The analysis's steps left; spending past them ends it (no warning)."""

    __slots__ = ("left", "steps")

    def __init__(self, steps: int) -> None:
        self.steps = steps
        self.left = steps

    def spend(self, steps: int) -> None:
        self.left -= steps
        if self.left < 0:
            raise _Unsupported

    @property
    def spent(self) -> int:
        return self.steps - self.left


class Analysis:
    """What the analysis of one pattern found, and the steps it took (tests and the
    benchmark read them). ``complete`` is False when a limit or an unmodelled construct
    stopped it: then ``exponential`` is False."""

    __slots__ = ("complete", "exponential", "work")

    def __init__(self, exponential: bool, work: int, complete: bool) -> None:
        self.exponential = exponential
        self.work = work
        self.complete = complete


class _Node:
    """A piece of the pattern: the positions it can start and end on, each with its number of
    routes, and its number of routes through the empty text (0: it cannot match empty)."""

    __slots__ = ("empty", "first", "last")

    def __init__(self, first: _Routes = _NONE, last: _Routes = _NONE, empty: int = 0) -> None:
        self.first = first
        self.last = last
        self.empty = empty


_EMPTY = _Node(empty=1)


def _times(m: int, n: int) -> int:
    return m * n if m * n < _MANY else _MANY


def _plus(a: _Routes, b: _Routes) -> _Routes:
    if not b:
        return a
    if not a:
        return b
    out = dict(a)
    for k, v in b.items():
        out[k] = min(out.get(k, 0) + v, _MANY)
    return out


class _Alphabet:
    """The characters the pattern's classes are told apart on, a bit each, and each
    character class of the pattern as the set of those it matches."""

    def __init__(self, chars: set[str], budget: _Budget) -> None:
        if len(chars) > MAX_ALPHABET:
            raise _Unsupported
        budget.spend(len(chars))
        self.budget = budget
        self.chars = sorted(chars)  # by code point
        self.codes = [ord(ch) for ch in self.chars]
        self.bit = {ch: 1 << i for i, ch in enumerate(self.chars)}
        self.every = (1 << len(self.chars)) - 1
        self._categories: dict[tuple[str, bool], int] = {}
        self._folds: dict[int, int] = {}

    def where(self, test: Any) -> int:
        self.budget.spend(len(self.chars))
        return sum(1 << i for i, ch in enumerate(self.chars) if test(ch))

    def item(self, op: str, av: Any, flags: int) -> int:
        """A LITERAL, NOT_LITERAL, ANY or IN item."""
        if op == "LITERAL":
            bits = self.bit[chr(av)]
        elif op == "NOT_LITERAL":
            bits = self.every & ~self.bit[chr(av)]
        elif op == "ANY":
            return self.every if flags & _DOTALL else self.every & ~self.bit["\n"]
        else:
            bits = self._set(av, bool(flags & _ASCII))
        return self._folded(bits) if flags & _IGNORECASE else bits

    def _set(self, items: list[tuple[Any, Any]], ascii_only: bool) -> int:
        self.budget.spend(len(items))
        negated = bool(items) and items[0][0].name == "NEGATE"
        bits = 0
        for op, av in items[negated:]:
            name = op.name
            if name == "LITERAL":
                bits |= self.bit[chr(av)]
            elif name == "RANGE":
                low, high = bisect_left(self.codes, av[0]), bisect_right(self.codes, av[1])
                bits |= ((1 << high) - 1) & ~((1 << low) - 1)
            elif name == "CATEGORY":
                bits |= self._category(av.name, ascii_only)
            else:
                raise _Unsupported
        return self.every & ~bits if negated else bits

    def _category(self, name: str, ascii_only: bool) -> int:
        key = (name, ascii_only)
        if key not in self._categories:
            self._categories[key] = self._category_bits(name, ascii_only)
        return self._categories[key]

    def _category_bits(self, name: str, ascii_only: bool) -> int:
        kind = name.rsplit("_", 1)[-1]
        if kind == "DIGIT":
            bits = self.where(lambda ch: ch.isdecimal() and (ch.isascii() or not ascii_only))
        elif kind == "SPACE":
            bits = self.where(lambda ch: ch in " \t\n\r\f\v" if ascii_only else ch.isspace())
        elif kind == "WORD":
            bits = self.where(
                lambda ch: (ch.isalnum() and (ch.isascii() or not ascii_only)) or ch == "_"
            )
        else:  # CATEGORY_LINEBREAK and the like
            raise _Unsupported
        return self.every & ~bits if "_NOT_" in name else bits

    def _folded(self, bits: int) -> int:
        """``bits`` and the characters that match them ignoring case."""
        if bits not in self._folds:
            self.budget.spend(len(self.chars))
            chosen = {ch for ch in self.chars if self.bit[ch] & bits}
            self._folds[bits] = self.where(
                lambda ch: ch in chosen or ch.lower() in chosen or ch.upper() in chosen
            )
        return self._folds[bits]


class _Graph:
    """Positions (what each matches) and the edges between them, counted once per way; it
    builds every node, and charges each to the budget."""

    def __init__(self, alphabet: _Alphabet, budget: _Budget) -> None:
        self.alphabet = alphabet
        self.budget = budget
        self.classes: list[int] = []
        # Each position's successors, each with its number of ways (1 or _MANY).
        self.follow: dict[int, _Routes] = {}
        self.opaque_bits = 0

    def position(self, bits: int) -> _Node:
        return self._add(bits)

    def opaque(self) -> _Node:
        """A position of its own kind, matching what no other position matches."""
        self.opaque_bits += 1
        return self._add(1 << (len(self.alphabet.chars) + self.opaque_bits))

    def _add(self, bits: int) -> _Node:
        if len(self.classes) >= MAX_POSITIONS:
            raise _Unsupported
        self.classes.append(bits)
        spot = len(self.classes) - 1
        return _Node({spot: 1}, {spot: 1})

    def join(self, left: _Routes, right: _Routes) -> None:
        """An edge from each position of ``left`` to each of ``right``, per way."""
        if not left or not right:
            return
        self.budget.spend(len(left) * len(right))
        follow = self.follow
        doubled = dict.fromkeys(right, _MANY)
        for p, m in left.items():
            row = follow.get(p)
            if row is None:
                follow[p] = dict(right if m == 1 else doubled)
                continue
            again = row.keys() & right.keys()  # an edge with a way already: now more
            row.update(right if m == 1 else doubled)
            if again:
                row.update(dict.fromkeys(again, _MANY))

    def then(self, a: _Node, b: _Node) -> _Node:
        """``a`` followed by ``b``."""
        self.budget.spend(1)
        self.join(a.last, b.first)
        first = self._sum(a.first, self._scaled(b.first, a.empty))
        last = self._sum(b.last, self._scaled(a.last, b.empty))
        return _Node(first, last, _times(a.empty, b.empty))

    def either(self, nodes: list[_Node]) -> _Node:
        """One of ``nodes``."""
        if len(nodes) == 1:
            return nodes[0]
        first: _Routes = {}
        last: _Routes = {}
        empty = 0
        for node in nodes:
            self.budget.spend(1 + len(node.first) + len(node.last))
            for into, routes in ((first, node.first), (last, node.last)):
                for k, v in routes.items():
                    into[k] = min(into.get(k, 0) + v, _MANY)
            empty = min(empty + node.empty, _MANY)
        return _Node(first, last, empty)

    def _scaled(self, routes: _Routes, times: int) -> _Routes:
        """Each route of ``routes`` taken ``times`` over."""
        if times == 1 or not routes:
            return routes
        if not times:
            return _NONE
        self.budget.spend(len(routes))
        return dict.fromkeys(routes, _MANY)

    def _sum(self, a: _Routes, b: _Routes) -> _Routes:
        if a and b:
            self.budget.spend(len(a) + len(b))
        return _plus(a, b)


def _sequence(graph: _Graph, items: Any, flags: int) -> _Node:
    node = _EMPTY
    for op, av in items:
        node = graph.then(node, _item(graph, op.name, av, flags))
    return node


def _item(graph: _Graph, op: str, av: Any, flags: int) -> _Node:
    graph.budget.spend(1)
    if op in ("LITERAL", "NOT_LITERAL", "ANY", "IN"):
        return graph.position(graph.alphabet.item(op, av, flags))
    if op == "GROUPREF":  # whatever the group matched: any character, as far as we know
        return graph.position(graph.alphabet.every)
    if op == "AT":
        return _EMPTY
    if op == "SUBPATTERN":
        _group, added, removed, inner = av
        return _sequence(graph, inner, (flags | added) & ~removed)
    if op == "BRANCH":
        return graph.either([_sequence(graph, branch, flags) for branch in av[1]])
    if op == "GROUPREF_EXISTS":
        _group, yes, no = av
        return graph.either([_sequence(graph, yes, flags), _sequence(graph, no or [], flags)])
    if op in ("ASSERT", "ASSERT_NOT"):
        _sequence(graph, av[1], flags)  # its own routes count; it matches no text
        return _EMPTY
    if op in ("MAX_REPEAT", "MIN_REPEAT"):
        low, high, inner = av
        return _repeat(graph, low, high, inner, flags)
    if op in ("ATOMIC_GROUP", "POSSESSIVE_REPEAT"):
        return graph.opaque()
    raise _Unsupported


def _repeat(graph: _Graph, low: int, high: int, inner: Any, flags: int) -> _Node:
    if high == 0:
        return _EMPTY
    body = _sequence(graph, inner, flags)
    if high <= UNROLLED:
        if not body.first:  # it reads nothing: its copies would add nothing but routes
            return _Node(empty=_empty_routes(body.empty, low, high))
        # x{2,4} is x x (x (x)?)?: each optional copy nested in the one before.
        copies = iter([body])
        optional = _EMPTY
        for _ in range(high - low):
            copy = next(copies, None) or _sequence(graph, inner, flags)
            optional = graph.either([graph.then(copy, optional), _EMPTY])
        node = _EMPTY
        for _ in range(low):
            node = graph.then(node, next(copies, None) or _sequence(graph, inner, flags))
        return graph.then(node, optional)
    graph.join(body.last, body.first)  # the next iteration after this one
    return _Node(body.first, body.last, min(body.empty + (1 if low == 0 else 0), _MANY))


def _empty_routes(empty: int, low: int, high: int) -> int:
    """The routes through the empty text of x{low,high}, x having ``empty`` of them."""
    optional = 1
    for _ in range(high - low):
        optional = min(_times(empty, optional) + 1, _MANY)
    for _ in range(low):
        optional = _times(empty, optional)
    return optional


def _components(
    nodes: list[Any], edges: dict[Any, list[Any]], budget: _Budget
) -> Iterator[list[Any]]:
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
            budget.spend(1)
            node, successors = work[-1]
            for successor in successors:
                budget.spend(1)
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
    classes, budget, follow = graph.classes, graph.budget, graph.follow
    budget.spend(3 * sum(map(len, follow.values())) + len(classes))
    # Edges into a position that matches nothing are never taken.
    successors = {p: [q for q in row if classes[q]] for p, row in follow.items()}
    predecessors: dict[int, list[int]] = {}
    for p, row in successors.items():
        for q in row:
            predecessors.setdefault(q, []).append(p)
    positions = list(range(len(classes)))
    component = {
        p: n for n, c in enumerate(_components(positions, successors, budget)) for p in c
    }
    # Two edges between the same positions, on a cycle: two routes from p back to p.
    if any(
        n > 1 and classes[q] and component[p] == component[q]
        for p, row in follow.items()
        for q, n in row.items()
    ):
        return True
    # Pairs of routes reading the same characters: the product of the graph with itself. Two
    # routes p -> p part at (p, p) and meet again at some (s, s); both sides stay in p's
    # component, so they can go on to (p, p) together. Such a pair of routes exists exactly
    # when some pair (q, r), q != r, can be reached from a (p, p) and can reach one.
    product = _Product(classes, component, budget)
    forward = product.reached(successors, True)
    if forward is None:
        return True
    ahead = {(p, q) for p, q in forward if p != q}
    behind = product.reached(predecessors, False) if ahead else set()
    return not ahead.isdisjoint(behind or ())


class _Product:
    """Pairs of positions of one component, walked in step on common characters."""

    def __init__(self, classes: list[int], component: dict[int, int], budget: _Budget) -> None:
        self.classes = classes
        self.component = component
        self.budget = budget

    def reached(
        self, links: dict[int, list[int]], forward: bool
    ) -> set[tuple[int, int]] | None:
        """The pairs reached from the same-position pairs on a cycle, following ``links``
        (successors, or predecessors when not ``forward``). None going forward when two
        routes that parted meet again at once: the answer, found early."""
        self.budget.spend(sum(map(len, links.values())))
        seen = {(p, p) for p in links if any(self._near(p, s) for s in links[p])}
        todo = list(seen)
        while todo:
            pair = todo.pop()
            for step in self._steps(pair, links, forward):
                if forward and pair[0] != pair[1] and step[0] == step[1]:
                    return None
                if step not in seen:
                    seen.add(step)
                    todo.append(step)
        return seen

    def _near(self, p: int, q: int) -> bool:
        return self.component[p] == self.component[q]

    def _steps(
        self, pair: tuple[int, int], links: dict[int, list[int]], forward: bool
    ) -> Iterator[tuple[int, int]]:
        p, q = pair
        self.budget.spend(1)
        if not forward and not self.classes[p] & self.classes[q]:
            return  # no step leads into positions that share no character
        for p2 in links.get(p, ()):
            for q2 in links.get(q, ()):
                self.budget.spend(1)
                shared = not forward or self.classes[p2] & self.classes[q2]
                if shared and self._near(p2, p) and self._near(q2, q):
                    yield p2, q2


def _alphabet(parsed: Any, budget: _Budget) -> _Alphabet:
    """ASCII, samples of other kinds of characters, and every character the pattern names
    (with its other case)."""
    chars = {chr(i) for i in range(128)} | set(_SAMPLES)
    for code in _codes(parsed, budget):
        ch = chr(code)
        chars.update((ch, ch.lower()[:1] or ch, ch.upper()[:1] or ch))
        if len(chars) > MAX_ALPHABET:
            raise _Unsupported
    return _Alphabet(chars, budget)


def _codes(parsed: Any, budget: _Budget) -> Iterator[int]:
    """The character codes of every literal and range bound in a parsed pattern (a walk
    with a stack of its own: a deep pattern costs no more per item than a flat one)."""
    stack = [iter(parsed)]
    while stack:
        for op, av in stack[-1]:
            budget.spend(1)
            name = op.name
            if name in ("LITERAL", "NOT_LITERAL"):
                yield av
            elif name == "RANGE":
                yield from av
            elif name in ("IN", "ATOMIC_GROUP"):
                stack.append(iter(av))
            elif name == "BRANCH":
                stack.extend(iter(branch) for branch in av[1])
            elif name == "GROUPREF_EXISTS":
                stack.extend((iter(av[1]), iter(av[2] or [])))
            elif name in ("SUBPATTERN", "MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                stack.append(iter(av[-1]))
            elif name in ("ASSERT", "ASSERT_NOT"):
                stack.append(iter(av[1]))
            else:
                continue
            if name not in ("LITERAL", "NOT_LITERAL", "RANGE"):
                break  # the walk goes on inside it, then back here
        else:
            stack.pop()


def analyse(pattern: str, steps: int = MAX_WORK) -> Analysis:
    """The analysis of ``pattern`` (which compiles), within ``steps`` of work: parsing it
    costs `_PARSE_STEPS` a character, every node built and every pair walked one or more."""
    budget = _Budget(steps)
    try:
        if len(pattern) > MAX_LENGTH:
            raise _Unsupported
        budget.spend(_PARSE_STEPS * len(pattern))
        parsed = sre_parse.parse(pattern)
        graph = _Graph(_alphabet(parsed, budget), budget)
        _sequence(graph, parsed, parsed.state.flags)
        return Analysis(_ambiguous(graph), budget.spent, True)
    except (_Unsupported, re.error, RecursionError):
        return Analysis(False, min(budget.spent, steps), False)


def backtracks_exponentially(pattern: str) -> bool:
    """Whether ``pattern`` (which compiles) can take exponential time in `re`."""
    return analyse(pattern).exponential
