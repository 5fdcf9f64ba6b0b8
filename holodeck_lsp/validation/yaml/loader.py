"""YAML text -> (data, source map, problems), with the loader semantics HoloDeck uses.

HoloDeck reads its files with PyYAML's safe loader (YAML 1.1: `yes`/`no` are booleans,
`0777` is octal). We parse with the C-backed parser, which keeps marks, and build the
values with the same resolver and safe constructors, so the data we validate is the data
HoloDeck would see, and every key and value keeps its exact position. A text with nothing
unusual is built straight from the parser's events (a hack: `event_loader.py`); any other
is composed into nodes first (`_Builder`: aliases and their budget, merge keys, duplicate
keys, tags, limits), and both give the same result (tests/validation/test_yaml_events.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.tokens import (
    BlockEndToken,
    BlockMappingStartToken,
    BlockSequenceStartToken,
    FlowMappingEndToken,
    FlowMappingStartToken,
    FlowSequenceEndToken,
    FlowSequenceStartToken,
)

from holodeck_lsp.nesting import MAX_DEPTH  # levels of lists and mappings, as any value's
from holodeck_lsp.validation.yaml.event_loader import load_from_events
from holodeck_lsp.validation.yaml.source_map import NodeInfo, SourceMap, Span, YamlPath

# The C parser is 10x faster; the pure one (PyYAML built without libyaml) gives the same values.
_Loader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_MERGE_TAG = "tag:yaml.org,2002:merge"
_STR_TAG = "tag:yaml.org,2002:str"

# Safety limits: past them a document is a diagnostic (HL007), never a resource problem.
MAX_TEXT = 6_000_000  # characters validated in full
MAX_ALIASES = 10_000  # alias uses expanded
MAX_ALIAS_VALUES = 100_000  # values the aliases bring in, each use counted as a copy
# What YAML's reader refuses (controls, lone surrogates, U+FFFE/U+FFFF).
_UNLOADABLE = re.compile(
    "[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)
_ASCII_UNLOADABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_YAML_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_ANCHOR = re.compile(r"(?:^|[\s\[{,?:-])&[^\s\[\]{},]")
_ALIAS = re.compile(r"(?:^|[\s\[{,?:-])\*[^\s\[\]{},]")
_REPLACEMENT = "\ufffd"
_SHOWN_UNLOADABLE = 20  # positioned problems for refused characters; then one summary
_OPENS = (BlockMappingStartToken, BlockSequenceStartToken, FlowMappingStartToken,
          FlowSequenceStartToken)
_CLOSES = (BlockEndToken, FlowMappingEndToken, FlowSequenceEndToken)


@dataclass(frozen=True)
class YamlProblem:
    """Something wrong with the YAML itself, before any model is applied."""

    kind: str  # "syntax", "tab", "duplicate-key", "construct", "encoding", "limit"
    span: Span
    message: str
    path: YamlPath = ()
    # For duplicate keys: where the first occurrence stands.
    other: Span | None = None


@dataclass
class LoadedYaml:
    data: Any
    source_map: SourceMap
    problems: list[YamlProblem] = field(default_factory=list)
    parsed: bool = True


def _span(node: Node) -> Span:
    s, e = node.start_mark, node.end_mark
    return Span(s.line, s.column, e.line, e.column)


class _Builder:
    def __init__(self, aliases: bool = False) -> None:
        self.ctor = SafeConstructor()
        self.nodes: dict[YamlPath, NodeInfo] = {}
        self.problems: list[YamlProblem] = []
        self._active: set[int] = set()
        # Alias bookkeeping, only for texts that have both an anchor and an alias: a node
        # met a second time is an alias use, admitted while the budget lasts.
        self._seen: set[int] | None = set() if aliases else None
        self._expanding = 0
        self._aliases = 0
        self._alias_values = 0
        self._over = False
        self._sizes: dict[int, int] = {}

    def build(self, node: Node, path: YamlPath, key_span: Span | None, depth: int = 0) -> Any:
        if self._seen is None or self._expanding:
            return self._build(node, path, key_span, depth)
        if id(node) not in self._seen:
            self._seen.add(id(node))
            return self._build(node, path, key_span, depth)
        if id(node) in self._active:  # a recursive alias: reported as such
            return self._build(node, path, key_span, depth)
        if not self._admit(node, path, key_span):
            return None
        self._expanding += 1
        try:
            return self._build(node, path, key_span, depth)
        finally:
            self._expanding -= 1

    def _admit(self, node: Node, path: YamlPath, key_span: Span | None) -> bool:
        """Whether one more alias use fits the budget (the first one that does not is
        reported; it and every later use load as null)."""
        if self._over:
            return False
        self._aliases += 1
        self._alias_values += self._size(node)
        if self._aliases <= MAX_ALIASES and self._alias_values <= MAX_ALIAS_VALUES:
            return True
        self._over = True
        parent = self.nodes.get(path[:-1]) if path else None
        where = key_span or (_point(parent.value.line, parent.value.col) if parent else
                             _span(node))
        if self._aliases > MAX_ALIASES:
            message = (f"more than {MAX_ALIASES:,} alias uses: this alias and the later ones "
                       "are not expanded (alias limit)")
        else:
            message = (f"aliases expand to more than {MAX_ALIAS_VALUES:,} values here: this "
                       "alias and the later ones are not expanded (alias expansion limit)")
        self.problems.append(YamlProblem("limit", where, message, path))
        return False

    def _size(self, root: Node) -> int:
        """How many values ``root`` stands for once every alias inside it is expanded."""
        sizes = self._sizes
        stack: list[tuple[Node, bool]] = [(root, False)]
        while stack:
            node, children_done = stack.pop()
            if node.__class__ is ScalarNode:
                sizes[id(node)] = 1
                continue
            children = (node.value if isinstance(node, SequenceNode)
                        else [part for pair in node.value for part in pair])
            if children_done:
                sizes[id(node)] = 1 + sum(sizes.get(id(child), 1) for child in children)
            elif id(node) not in sizes:
                sizes[id(node)] = 1  # until its children are counted: a cycle counts once
                stack.append((node, True))
                stack.extend((child, False) for child in children if id(child) not in sizes)
        return sizes[id(root)]

    def _build(self, node: Node, path: YamlPath, key_span: Span | None, depth: int) -> Any:
        s, e = node.start_mark, node.end_mark
        span = Span(s.line, s.column, e.line, e.column)
        if node.__class__ is ScalarNode:
            self.nodes[path] = NodeInfo(key_span, span, "scalar", node.style)
            # Most values are plain text: skip the constructor lookup for them.
            return node.value if node.tag == _STR_TAG else self._scalar(node, path)
        if id(node) in self._active:
            self.nodes[path] = NodeInfo(key_span, span, "scalar", None)
            self.problems.append(YamlProblem("construct", span, "recursive alias", path))
            return None
        if depth >= MAX_DEPTH:
            self.nodes[path] = NodeInfo(key_span, span, "scalar", None)
            self.problems.append(YamlProblem("limit", _point(s.line, s.column),
                                             _too_deep_message()))
            return None
        self._active.add(id(node))
        try:
            if isinstance(node, SequenceNode):
                self.nodes[path] = NodeInfo(key_span, span, "sequence", None)
                build = self.build
                return [
                    build(child, (*path, i), None, depth + 1) for i, child in enumerate(node.value)
                ]
            if isinstance(node, MappingNode):
                self.nodes[path] = NodeInfo(key_span, span, "mapping", None)
                return self._mapping(node, path, depth)
        finally:
            self._active.discard(id(node))
        return None  # pragma: no cover - no other node kinds exist

    def _scalar(self, node: ScalarNode, path: YamlPath) -> Any:
        constructor = self.ctor.yaml_constructors.get(node.tag)
        try:
            if constructor is None:
                raise ConstructorError(
                    None,
                    None,
                    f"could not determine a constructor for the tag {node.tag!r}",
                    node.start_mark,
                )
            return constructor(self.ctor, node)
        except (ConstructorError, ValueError, TypeError) as exc:
            message = getattr(exc, "problem", None) or str(exc)
            self.problems.append(YamlProblem("construct", _span(node), message, path))
            return node.value  # the text as written, so the models see no second problem

    def _mapping(self, node: MappingNode, path: YamlPath, depth: int) -> dict[Any, Any]:
        if any(key.tag == _MERGE_TAG for key, _ in node.value):
            try:
                self.ctor.flatten_mapping(node)
            except ConstructorError as exc:
                self.problems.append(YamlProblem("construct", _span(node), str(exc.problem), path))
        result: dict[Any, Any] = {}
        first_seen: dict[Any, Span] = {}
        build = self.build
        for key_node, value_node in node.value:
            km, ke = key_node.start_mark, key_node.end_mark
            key_span = Span(km.line, km.column, ke.line, ke.column)
            if key_node.__class__ is ScalarNode:
                key = key_node.value if key_node.tag == _STR_TAG else self._scalar(key_node, path)
            else:
                key = self.build(key_node, (*path, "<key>"), None, depth + 1)
            try:
                hash(key)
            except TypeError:
                # Only its start: where a block key ends depends on what follows it.
                self.problems.append(YamlProblem(
                    "construct", _point(km.line, km.column), "a mapping key must be a scalar",
                    path)
                )
                continue
            if key in first_seen:
                self.problems.append(
                    YamlProblem(
                        "duplicate-key",
                        key_span,
                        f"duplicate key {key!r}: this value replaces the one given earlier",
                        (*path, key),
                        other=first_seen[key],
                    )
                )
            first_seen[key] = key_span
            result[key] = build(value_node, (*path, key), key_span, depth + 1)
        return result


def load_yaml(text: str, max_text: int = MAX_TEXT, depth: int = 0) -> LoadedYaml:
    """Parse ``text``; never raises. A file that does not parse gives ``parsed=False``,
    as does one longer than ``max_text`` characters (with the limit as its problem).
    ``depth``: the levels ``text`` sits under in the file it was cut from (the incremental
    loader's test cases), which count towards `MAX_DEPTH`."""
    if len(text) > max_text:
        return _unparsed(YamlProblem("limit", _first_line(text), (
            f"the file has {len(text):,} characters; files over {max_text:,} are not "
            "validated (document size limit)")))
    text, refused = _loadable(text)
    fast = load_from_events(text, depth)
    if fast is not None:
        return LoadedYaml(*fast, refused)
    # libyaml accepts tabs as separators where the pure-Python scanner (HoloDeck's) refuses
    # them; only a text with a tab needs the slower loader to get HoloDeck's verdict.
    try:
        root = _compose(text)
    except (RecursionError, _TooDeep):  # only the pure-Python composer recurses per level
        return _unparsed(*refused, _depth_problem(text, depth))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line, mark.column) if mark is not None else (0, 0)
        problem = str(exc.problem or exc.context or "invalid YAML")
        kind = "tab" if _is_tab_problem(text, line, col, problem) else "syntax"
        detail = problem + (f" ({exc.context})" if exc.context and exc.problem else "")
        if kind == "tab":
            detail = "tab character in indentation; YAML indents with spaces only"
        return _unparsed(*refused, YamlProblem(kind, _point(line, col), detail))
    except yaml.YAMLError as exc:  # a reader error the replacement above did not prevent
        mark = getattr(exc, "position", None)
        span = _offset_span(text, mark) if isinstance(mark, int) else Span(0, 0, 0, 0)
        return _unparsed(*refused, YamlProblem("syntax", span, str(exc)))
    if root is None:
        return LoadedYaml(None, SourceMap({}), refused)
    builder = _Builder(aliases=_ANCHOR.search(text) is not None
                       and _ALIAS.search(text) is not None)
    data = builder.build(root, (), None, depth)
    return LoadedYaml(data, SourceMap(builder.nodes), [*refused, *builder.problems])


def _unparsed(*problems: YamlProblem) -> LoadedYaml:
    return LoadedYaml(None, SourceMap({}), list(problems), parsed=False)


def _first_line(text: str) -> Span:
    end = text.find("\n", 0, 200)
    return Span(0, 0, 0, max(1, end if end != -1 else min(len(text), 200)))


def _too_deep_message() -> str:
    return (f"lists and mappings nested more than {MAX_DEPTH} levels deep: what is inside is "
            "not validated (nesting limit)")


def _depth_problem(text: str, under: int = 0) -> YamlProblem:
    """Where the text first nests deeper than the limit (its tokens, read without recursion),
    ``under`` levels counted before its own."""
    for loader in (_Loader, yaml.SafeLoader):
        depth = under
        try:
            for token in yaml.scan(text, Loader=loader):
                if isinstance(token, _OPENS):
                    depth += 1
                    if depth > MAX_DEPTH:
                        mark = token.start_mark
                        return YamlProblem("limit", _point(mark.line, mark.column),
                                           _too_deep_message())
                elif isinstance(token, _CLOSES):
                    depth -= 1
        except (yaml.YAMLError, UnicodeError):
            continue
    return YamlProblem("limit", _first_line(text), _too_deep_message())


def _loadable(text: str) -> tuple[str, list[YamlProblem]]:
    """``text`` with each character YAML refuses replaced by U+FFFD (same offsets, so the
    rest of the file loads and keeps its positions), and a problem at each of them."""
    pattern = _ASCII_UNLOADABLE if text.isascii() else _UNLOADABLE
    if pattern.search(text) is None:
        return text, []
    problems: list[YamlProblem] = []
    line, line_start, scanned = 0, 0, 0
    matches = list(pattern.finditer(text))
    for match in matches[:_SHOWN_UNLOADABLE]:
        at = match.start()
        for brk in _YAML_BREAK.finditer(text, scanned, at):
            line, line_start = line + 1, brk.end()
        scanned = at
        problems.append(YamlProblem(*_refused(match.group(), line, at - line_start)))
    if len(matches) > _SHOWN_UNLOADABLE:
        last = problems[-1]
        problems.append(YamlProblem(last.kind, last.span, (
            f"{len(matches) - _SHOWN_UNLOADABLE:,} more characters YAML does not allow "
            "follow; only the first are marked")))
    return pattern.sub(_REPLACEMENT, text), problems


def _refused(char: str, line: int, col: int) -> tuple[str, Span, str]:
    code = ord(char)
    if 0xD800 <= code <= 0xDFFF:
        return "encoding", _point(line, col), (
            f"lone surrogate U+{code:04X}: not a character, so the file cannot be saved as "
            "UTF-8")
    return "syntax", _point(line, col), f"YAML does not allow the character U+{code:04X} here"


def fast_reader_accepts(text: str) -> bool:
    """Whether the C reader parses ``text`` (a cheap first opinion, never the verdict)."""
    try:
        yaml.compose(text, Loader=_Loader)
    except (yaml.YAMLError, UnicodeError):
        return False
    return True


class _TooDeep(Exception):
    pass


def _compose(text: str) -> Node | None:
    if "\t" in text:
        return yaml.compose(text, Loader=yaml.SafeLoader)
    try:
        return yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        if "maximum nesting depth" in str(exc):  # libyaml's own limit (1,000 levels)
            raise _TooDeep from exc
        # libyaml also refuses texts the pure-Python reader (HoloDeck's) loads, such as a
        # "\ud800" escape: HoloDeck's reader has the last word, and gives the error if any.
        return yaml.compose(text, Loader=yaml.SafeLoader)


def _point(line: int, col: int) -> Span:
    return Span(line, col, line, col + 1)


def _offset_span(text: str, offset: int) -> Span:
    line = text.count("\n", 0, offset)
    col = offset - (text.rfind("\n", 0, offset) + 1)
    return _point(line, col)


def _is_tab_problem(text: str, line: int, col: int, problem: str) -> bool:
    if "\t" in problem or "tab" in problem:
        return True
    lines = text.splitlines()
    if 0 <= line < len(lines):
        indent = lines[line][: len(lines[line]) - len(lines[line].lstrip(" \t"))]
        return "\t" in indent and col <= len(indent)
    return False
