"""A text with nothing unusual loaded straight from the parser's events, a third faster
than composing nodes first (`loader.py` composes any other text, and both give the same
data and positions: tests/validation/test_yaml_events.py); its positions are built from the
same events when first asked for (a file with no problem to place never needs them). The
resolver's verdicts and short scalars are remembered across texts.

A hack (CONTRIBUTING, "Performance hacks"). Benchmark row: `check`, 1,000-case suite,
cold. Off (`HOLODECK_LSP_WITHOUT=event-loader`): every text is composed into nodes.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import yaml
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)
from yaml.nodes import ScalarNode

from holodeck_lsp.hack_switches import hack_on
from holodeck_lsp.nesting import MAX_DEPTH
from holodeck_lsp.validation.yaml.source_map import NodeInfo, SourceMap, Span, YamlPath

_PARSER: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C parser, where built
_STR_TAG = yaml.resolver.BaseResolver.DEFAULT_SCALAR_TAG


def load_from_events(text: str, depth: int = 0) -> tuple[Any, SourceMap] | None:
    """The data and source map of ``text``, or None when the hack is off or the text is
    unusual (see `_from_events`). ``depth``: as `load_yaml`'s."""
    built = _from_events(text, depth) if hack_on("event-loader") else None
    if built is None:
        return None
    data, events = built
    if len(text) > _KEPT_EVENTS_TEXT:  # events weigh half again as much as the table
        return data, SourceMap(_node_table(events))
    return data, SourceMap(build=partial(_node_table, events))


class _Unusual(Exception):
    """Something `_from_events` leaves to the node builder, which reports on it."""


_NO_KEY = object()  # a mapping waiting for its next key (None is a key: `~: x`)


def _from_events(text: str, depth: int = 0) -> tuple[Any, list[Any]] | None:
    """The data of ``text`` built straight from the parser's events, a third faster than
    composing nodes first, and the events (their marks place each value: `_node_table`),
    for texts with nothing unusual: no tab, alias, merge key, key that is a list or
    mapping, duplicate key, tag that does not construct, nesting past the limit, second
    document or YAML error. For any other text, None: the node builder loads it, with its
    problems. Both give the same data and positions."""
    if "\t" in text:  # HoloDeck's (the pure-Python) reader decides what a tab means
        return None
    if len(_resolved) > _REMEMBERED or len(_built) > _REMEMBERED:
        _resolved.clear()
        _built.clear()
    events: list[Any] = []
    record = events.append
    # The enclosing lists and mappings: each one's container, whether it is a mapping,
    # and its pending key (a mapping's, once its value is done: none).
    stack: list[tuple[Any, bool, Any]] = []
    container: Any = None  # the innermost open list or mapping (None: the document)
    is_mapping = False
    key: Any = _NO_KEY  # a mapping's key waiting for its value
    root: Any = None
    documents = 0
    parser = _PARSER(text)
    next_event = parser.get_event  # None once the stream has ended
    try:
        while (event := next_event()) is not None:
            record(event)
            kind = event.__class__
            if kind is ScalarEvent:
                value = _value(event)
                if is_mapping:
                    if key is _NO_KEY:
                        key = value
                    elif key in container:  # a duplicate key
                        raise _Unusual
                    else:
                        container[key] = value
                        key = _NO_KEY
                elif container is not None:
                    container.append(value)
                else:
                    root = value
            elif kind is MappingStartEvent or kind is SequenceStartEvent:
                created: Any = {} if kind is MappingStartEvent else []
                if is_mapping:
                    if key is _NO_KEY or key in container:  # a list or mapping as a key
                        raise _Unusual
                    container[key] = created
                elif container is not None:
                    container.append(created)
                else:
                    root = created
                if len(stack) + depth >= MAX_DEPTH:
                    raise _Unusual
                stack.append((container, is_mapping, _NO_KEY))
                container, is_mapping, key = created, kind is MappingStartEvent, _NO_KEY
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                container, is_mapping, key = stack.pop()
            elif kind is AliasEvent:
                raise _Unusual
            elif kind is DocumentStartEvent:
                documents += 1
                if documents > 1:
                    raise _Unusual
    except (_Unusual, yaml.YAMLError, ConstructorError, ValueError, TypeError, UnicodeError,
            RecursionError):
        return None
    finally:
        parser.dispose()
    return root, events


def _value(event: Any) -> Any:
    """A scalar event's value, as the safe loader constructs it (_Unusual: it does not)."""
    value = event.value
    tag = event.tag
    if tag is None or tag == "!":
        # Keys and many values repeat: the resolver (regular expressions in Python)
        # decides once per short text and plainness.
        asked = (value, event.implicit)
        tag = _resolved.get(asked)
        if tag is None:
            tag = _RESOLVER.resolve(ScalarNode, *asked)  # type: ignore[no-untyped-call]
            if len(value) <= _REMEMBERED_LENGTH:
                _resolved[asked] = tag
    if tag == _STR_TAG:
        return value
    made = _built.get((tag, value), _NO_KEY)  # scalars construct to immutable values
    if made is _NO_KEY:
        constructor = _CONSTRUCTOR.yaml_constructors.get(tag)
        if constructor is None:  # the merge key's tag among them
            raise _Unusual
        made = constructor(_CONSTRUCTOR, ScalarNode(tag, value, event.start_mark,
                                                    event.end_mark, event.style))
        if len(value) <= _REMEMBERED_LENGTH:
            _built[tag, value] = made
    return made


def _node_table(events: list[Any]) -> dict[YamlPath, NodeInfo]:
    """Where each key and value of a text `_from_events` loaded stands, from its events."""
    # A large suite has a hundred thousand events: its tuples are built with tuple.__new__
    # (a NamedTuple's own __new__ is Python code, a sixth of the loop).
    new = tuple.__new__
    nodes: dict[YamlPath, NodeInfo] = {}
    # The enclosing lists and mappings: each one's path, whether it is a mapping, items
    # so far, start mark and key span.
    stack: list[tuple[YamlPath, bool, int, Any, Span | None]] = []
    path: YamlPath = ()  # the innermost open list or mapping's
    is_mapping = False
    count = 0  # its items so far (a list's)
    key: Any = _NO_KEY  # a mapping's key waiting for its value, and where it stands
    key_span: Span | None = None
    start: Any = None
    own_key: Span | None = None  # the key that introduces the innermost list or mapping
    for event in events:
        kind = event.__class__
        if kind is ScalarEvent:
            s, e = event.start_mark, event.end_mark
            span = new(Span, (s.line, s.column, e.line, e.column))
            if is_mapping:
                if key is _NO_KEY:
                    key, key_span = _value(event), span
                    continue
                at: YamlPath = (*path, key)
                nodes[at] = new(NodeInfo, (key_span, span, "scalar", event.style))
                key = _NO_KEY
            elif stack:
                at = (*path, count)
                nodes[at] = new(NodeInfo, (None, span, "scalar", event.style))
                count += 1
            else:
                nodes[()] = new(NodeInfo, (None, span, "scalar", event.style))
        elif kind is MappingStartEvent or kind is SequenceStartEvent:
            if is_mapping:  # a key's value
                child, child_key = (*path, key), key_span
            elif stack:  # a list's item
                child, child_key = (*path, count), None
                count += 1
            else:  # the document's
                child, child_key = (), None
            stack.append((path, is_mapping, count, start, own_key))
            path, is_mapping, count = child, kind is MappingStartEvent, 0
            start, own_key, key = event.start_mark, child_key, _NO_KEY
        elif kind is MappingEndEvent or kind is SequenceEndEvent:
            e = event.end_mark
            nodes[path] = new(NodeInfo, (
                own_key, new(Span, (start.line, start.column, e.line, e.column)),
                "mapping" if is_mapping else "sequence", None))
            path, is_mapping, count, start, own_key = stack.pop()
            key = _NO_KEY
    return nodes


_RESOLVER = yaml.resolver.Resolver()
_CONSTRUCTOR = SafeConstructor()
# What the resolver decided and the constructors built for short scalars, kept across
# texts (the server's incremental loader parses a suite case by case): both depend on the
# scalar alone, and the values are immutable. Bounded: cleared past _REMEMBERED entries.
_resolved: dict[tuple[str, Any], str] = {}
_built: dict[tuple[str, str], Any] = {}
_REMEMBERED = 4_000
_REMEMBERED_LENGTH = 200
# Up to this many characters, a text's positions are built when first asked for (most
# files have no problem to place); a longer one's at once, not to hold all its events.
_KEPT_EVENTS_TEXT = 2_000_000
