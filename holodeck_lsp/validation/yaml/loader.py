"""YAML text -> (data, source map, problems), with the loader semantics HoloDeck uses.

HoloDeck reads its files with PyYAML's safe loader (YAML 1.1: `yes`/`no` are booleans,
`0777` is octal). We compose with the C-backed parser, which keeps node marks, and
build the values with the same safe constructors, so the data we validate is the data
HoloDeck would see, and every key and value keeps its exact position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from holodeck_lsp.validation.yaml.source_map import NodeInfo, SourceMap, Span, YamlPath

try:  # the C parser is 10x faster; the pure one gives the same values
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _Loader = yaml.SafeLoader

_MERGE_TAG = "tag:yaml.org,2002:merge"
_STR_TAG = "tag:yaml.org,2002:str"
_MAX_DEPTH = 200


@dataclass(frozen=True)
class YamlProblem:
    """Something wrong with the YAML itself, before any model is applied."""

    kind: str  # "syntax", "tab", "duplicate-key", "construct"
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
    def __init__(self) -> None:
        self.ctor = SafeConstructor()
        self.nodes: dict[YamlPath, NodeInfo] = {}
        self.problems: list[YamlProblem] = []
        self._active: set[int] = set()

    def build(self, node: Node, path: YamlPath, key_span: Span | None, depth: int = 0) -> Any:
        s, e = node.start_mark, node.end_mark
        span = Span(s.line, s.column, e.line, e.column)
        if node.__class__ is ScalarNode:
            self.nodes[path] = NodeInfo(key_span, span, "scalar", node.style)
            # Most values are plain text: skip the constructor lookup for them.
            return node.value if node.tag == _STR_TAG else self._scalar(node, path)
        if depth > _MAX_DEPTH or id(node) in self._active:
            self.nodes[path] = NodeInfo(key_span, span, "scalar", None)
            self.problems.append(YamlProblem("construct", span, "recursive alias", path))
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
                self.problems.append(
                    YamlProblem("construct", key_span, "a mapping key must be a scalar", path)
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


def load_yaml(text: str) -> LoadedYaml:
    """Parse ``text``; never raises. A file that does not parse gives ``parsed=False``."""
    # libyaml accepts tabs as separators where the pure-Python scanner (HoloDeck's) refuses
    # them; only a text with a tab needs the slower loader to get HoloDeck's verdict.
    try:
        root = _compose(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line, mark.column) if mark is not None else (0, 0)
        problem = str(exc.problem or exc.context or "invalid YAML")
        kind = "tab" if _is_tab_problem(text, line, col, problem) else "syntax"
        detail = problem + (f" ({exc.context})" if exc.context and exc.problem else "")
        if kind == "tab":
            detail = "tab character in indentation; YAML indents with spaces only"
        return LoadedYaml(
            None, SourceMap({}), [YamlProblem(kind, _point(line, col), detail)], parsed=False
        )
    except yaml.YAMLError as exc:  # a reader error: control characters and the like
        mark = getattr(exc, "position", None)
        span = _offset_span(text, mark) if isinstance(mark, int) else Span(0, 0, 0, 0)
        return LoadedYaml(
            None, SourceMap({}), [YamlProblem("syntax", span, str(exc))], parsed=False
        )
    if root is None:
        return LoadedYaml(None, SourceMap({}), [])
    builder = _Builder()
    data = builder.build(root, (), None)
    return LoadedYaml(data, SourceMap(builder.nodes), builder.problems)


def fast_reader_accepts(text: str) -> bool:
    """Whether the C reader parses ``text`` (a cheap first opinion, never the verdict)."""
    try:
        yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError:
        return False
    return True


def _compose(text: str) -> Node | None:
    if "\t" in text:
        return yaml.compose(text, Loader=yaml.SafeLoader)
    try:
        return yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError:
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
