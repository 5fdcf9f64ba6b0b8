"""Quick fixes that rewrite one field where the fix is obvious: a grader written
`a.b.c`, a matcher with both `fuzzy` and `regex`, `turns: []`, a negative tolerance, a
code metric given a field of another metric type.

Like the others, each re-reads the current text, checks that what it changes is still
there, and rewrites that field only.
"""

from __future__ import annotations

from typing import Any

from holodeck_lsp.editing.text_edits import Text, TextEdit, block_entries, remove_entry
from holodeck_lsp.models.evaluation import CodeMetric, EvaluationMetric, GEvalMetric, RAGMetric
from holodeck_lsp.validation.collector import value_at
from holodeck_lsp.validation.diagnostics import Diagnostic, Range
from holodeck_lsp.validation.yaml.loader import LoadedYaml
from holodeck_lsp.validation.yaml.source_map import NodeInfo, SourceMap, YamlPath

MATCHERS = ("fuzzy", "regex")
# Fields a metric of another type has and a code metric does not.
OTHER_METRIC_FIELDS = frozenset(
    name
    for model in (EvaluationMetric, GEvalMetric, RAGMetric)
    for name in model.model_fields
    if name not in CodeMetric.model_fields
)


def _value_range(info: NodeInfo) -> Range:
    v = info.value
    return Range.of(v.line, v.col, v.end_line, v.end_col)


def path_with_key_at(source_map: SourceMap, where: Range) -> YamlPath | None:
    """The path of the mapping entry whose key starts where ``where`` starts."""
    start = (where.start.line, where.start.character)
    for path in source_map.paths():
        info = source_map.get(path)
        if info is not None and info.key is not None and (info.key.line, info.key.col) == start:
            return path
    return None


def _path_with_value_at(source_map: SourceMap, where: Range) -> YamlPath | None:
    start = (where.start.line, where.start.character)
    for path in source_map.paths():
        info = source_map.get(path)
        if (
            info is not None
            and info.kind == "scalar"
            and (info.value.line, info.value.col) == start
        ):
            return path
    return None


def grader_colon(doc: Text, loaded: LoadedYaml, d: Diagnostic) -> list[TextEdit]:
    """`graders.checks.exact` -> `graders.checks:exact`."""
    path = _path_with_value_at(loaded.source_map, d.range)
    written = value_at(loaded.data, path) if path is not None else None
    if not isinstance(written, str) or ":" in written or "." not in written.strip("."):
        return []
    info = loaded.source_map.get(path) if path is not None else None
    if info is None or info.value.line != info.value.end_line:
        return []
    module, _, function = written.rpartition(".")
    fixed = f"{module}:{function}"
    where = _value_range(info)
    source = doc.text[doc.offset(where.start.line, where.start.character) :][: len(written) + 2]
    quote = source[0] if source[:1] in ("'", '"') else ""
    return [TextEdit(where, f"{quote}{fixed}{quote}")]


def keep_matcher(doc: Text, loaded: LoadedYaml, d: Diagnostic, kept: str) -> list[TextEdit]:
    """A matcher with both `fuzzy` and `regex` keeps ``kept`` only."""
    path = path_with_key_at(loaded.source_map, d.range)
    matcher = value_at(loaded.data, path) if path is not None else None
    if path is None or not isinstance(matcher, dict) or set(matcher) != set(MATCHERS):
        return []
    dropped = MATCHERS[1 - MATCHERS.index(kept)]
    entries = block_entries(doc, loaded.source_map, path)
    if entries is None:  # flow style: the mapping is written again with one entry
        info = loaded.source_map.get(path)
        kept_info = loaded.source_map.get((*path, kept))
        if info is None or kept_info is None or info.value.line != info.value.end_line:
            return []
        v = kept_info.value
        value_text = doc.text[doc.offset(v.line, v.col) : doc.offset(v.end_line, v.end_col)]
        return [TextEdit(_value_range(info), f"{{{kept}: {value_text}}}")]
    return remove_entry(doc, entries, dropped)


def insert_turn(doc: Text, loaded: LoadedYaml, d: Diagnostic) -> list[TextEdit]:
    """`turns: []` -> one turn whose input (`TODO`) is to be written."""
    path = path_with_key_at(loaded.source_map, d.range)
    info = loaded.source_map.get(path) if path is not None else None
    if path is None or info is None or value_at(loaded.data, path) != [] or info.key is None:
        return []
    where = _value_range(info)
    end = doc.offset(where.end.line, where.end.character)
    rest = doc.text[end:].split("\n", 1)[0].rstrip("\r")
    if rest.strip():  # something follows on the line (a comment): stay in flow style
        return [TextEdit(where, '[{input: "TODO"}]')]
    start = doc.offset(where.start.line, where.start.character)
    while start > 0 and doc.text[start - 1] == " ":  # no trailing space after `turns:`
        start -= 1
    indent = " " * (info.key.col + 2)
    return [
        TextEdit(Range(doc.position(start), where.end), f'{doc.newline}{indent}- input: "TODO"')
    ]


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def tolerance_to_zero(doc: Text, loaded: LoadedYaml, d: Diagnostic) -> list[TextEdit]:
    """A negative `*_tolerance` -> 0."""
    path = _path_with_value_at(loaded.source_map, d.range)
    if path is None or not str(path[-1]).endswith("tolerance"):
        return []
    value = _number(value_at(loaded.data, path))
    info = loaded.source_map.get(path)
    if value is None or value >= 0 or info is None:
        return []
    return [TextEdit(_value_range(info), "0")]


def remove_foreign_field(doc: Text, loaded: LoadedYaml, d: Diagnostic) -> list[TextEdit]:
    """A code metric's field that only another metric type has: removed."""
    path = path_with_key_at(loaded.source_map, d.range)
    if path is None or str(path[-1]) not in OTHER_METRIC_FIELDS:
        return []
    metric = value_at(loaded.data, path[:-1])
    if not isinstance(metric, dict) or metric.get("type") != "code":
        return []
    entries = block_entries(doc, loaded.source_map, path[:-1])
    if not entries:
        return []
    return remove_entry(doc, entries, str(path[-1]))
