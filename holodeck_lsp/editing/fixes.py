"""Quick fixes for diagnostics, and the single-to-multi-turn rewrite, as exact text edits.

Each fix re-reads the current text (a diagnostic may be older than the buffer) and
checks that what it is about to change is still there; it then rewrites only the
lines it moves, so comments and formatting elsewhere are untouched.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from holodeck_lsp.editing import field_fixes, upgrade_fixes
from holodeck_lsp.editing.field_fixes import path_with_key_at
from holodeck_lsp.editing.text_edits import (
    Text,
    TextEdit,
    apply,
    block_entries,
    minimal_edit,
    reindent,
    removal,
    runs,
)
from holodeck_lsp.models.test_case import SINGLE_TURN_FIELDS
from holodeck_lsp.validation.diagnostics import Diagnostic, Range
from holodeck_lsp.validation.yaml.loader import LoadedYaml, load_yaml
from holodeck_lsp.validation.yaml.source_map import NodeInfo, YamlPath

FixKind = Literal["quickfix", "refactor"]


@dataclass(frozen=True)
class Fix:
    title: str
    edit: TextEdit
    kind: FixKind = "quickfix"
    preferred: bool = False
    diagnostic: Diagnostic | None = None


def _slice(doc: Text, where: Range) -> str:
    start = doc.offset(where.start.line, where.start.character)
    end = doc.offset(where.end.line, where.end.character)
    return doc.text[start:end]


def _replace(doc: Text, where: Range, new_text: str) -> TextEdit:
    return minimal_edit(doc.text, apply(doc.text, [TextEdit(where, new_text)]))


def _rename_key(doc: Text, d: Diagnostic, guess: Any, preferred: bool = True) -> list[Fix]:
    if not isinstance(guess, str) or d.range.start.line != d.range.end.line:
        return []
    written = _slice(doc, d.range)
    if not written or written.strip(" '\"") == guess:
        return []
    edit = _replace(doc, d.range, guess)
    return [Fix(f"Rename '{written}' to '{guess}'", edit, preferred=preferred, diagnostic=d)]


def _set_value(
    doc: Text, d: Diagnostic, value: Any, title: str | None = None, requote: bool = True
) -> list[Fix]:
    if d.range.start.line != d.range.end.line:
        return []
    written = _slice(doc, d.range)
    if not written.strip() or written.lstrip()[:1] in ("{", "[", "|", ">"):
        return []
    text = "true" if value is True else "false" if value is False else str(value)
    quote = written[0] if requote and written[0] in "'\"" else ""
    new_text = f"{quote}{text}{quote}"
    if new_text == written:
        return []
    edit = _replace(doc, d.range, new_text)
    return [Fix(title or f"Change '{written}' to '{new_text}'", edit, preferred=True, diagnostic=d)]


def _quote(doc: Text, d: Diagnostic, source: Any) -> list[Fix]:
    if not isinstance(source, str) or _slice(doc, d.range) != source:
        return []
    quoted = json.dumps(source, ensure_ascii=False)  # a valid YAML double-quoted scalar
    edit = _replace(doc, d.range, quoted)
    return [Fix(f"Quote as {quoted}", edit, preferred=True, diagnostic=d)]


def _flow(doc: Text, info: NodeInfo) -> bool:
    return doc.line_text(info.value.line)[info.value.col : info.value.col + 1] in ("{", "[")


def _move_into_first_turn(
    doc: Text, loaded: LoadedYaml, case: YamlPath, keys: list[str]
) -> str | None:
    """The text with ``keys`` of the test case at ``case`` moved into its turns[0]."""
    smap = loaded.source_map
    entries = block_entries(doc, smap, case)
    first_turn = smap.get((*case, "turns", 0))
    turn_entries = block_entries(doc, smap, (*case, "turns", 0))
    if not entries or not turn_entries or first_turn is None or _flow(doc, first_turn):
        return None
    taken = {e.key for e in turn_entries}
    moving = {k for k in keys if k not in taken}
    if not moving or "turns" in moving:
        return None
    case_col = entries[0].key_col
    turn_col = turn_entries[0].key_col
    nl = doc.newline
    spans: list[tuple[int, int, str]] = []
    inserted = ""
    for first, last in runs(entries, moving):
        cut = removal(doc, entries, first, last)
        if cut is None:
            return None
        spans.append((*cut, ""))
        chunk = doc.text[entries[first].key_start : entries[last].end]
        inserted += nl + " " * turn_col + reindent(chunk, turn_col - case_col)
    spans.append((turn_entries[-1].end, turn_entries[-1].end, inserted))
    text = doc.text
    for start, end, new_text in sorted(spans, key=lambda s: (s[0], s[1]), reverse=True):
        text = text[:start] + new_text + text[end:]
    return text


def _case_of(path: YamlPath, list_top: bool) -> YamlPath | None:
    """The path of the test case that holds ``path``."""
    if list_top and path and isinstance(path[0], int):
        return path[:1]
    if len(path) >= 2 and path[0] == "test_cases" and isinstance(path[1], int):
        return path[:2]
    return None


def _turns_conflict(doc: Text, loaded: LoadedYaml, d: Diagnostic) -> list[Fix]:
    path = path_with_key_at(loaded.source_map, d.range)
    if path is None or path[-1] not in SINGLE_TURN_FIELDS:
        return []
    case = path[:-1]
    data: Any = loaded.data
    for part in case:
        data = data[part] if isinstance(data, (dict, list)) else None
    if not isinstance(data, dict) or not isinstance(data.get("turns"), list):
        return []
    fixes = []
    moved = _move_into_first_turn(doc, loaded, case, [str(path[-1])])
    if moved is not None:
        fixes.append(
            Fix(
                f"Move '{path[-1]}' into turns[0]",
                minimal_edit(doc.text, moved),
                preferred=True,
                diagnostic=d,
            )
        )
    first_turn = data["turns"][0] if data["turns"] else None
    taken = set(first_turn) if isinstance(first_turn, dict) else set()
    movable = [k for k in SINGLE_TURN_FIELDS if data.get(k) is not None and k not in taken]
    if len(movable) > 1:
        every = _move_into_first_turn(doc, loaded, case, movable)
        if every is not None:
            names = ", ".join(f"'{k}'" for k in movable)
            fixes.append(
                Fix(f"Move {names} into turns[0]", minimal_edit(doc.text, every), diagnostic=d)
            )
    return fixes


def fixes_for(text: str, diagnostic: Diagnostic) -> list[Fix]:
    """The quick fixes of one diagnostic against the current text."""
    doc = Text(text)
    data = diagnostic.data or {}
    code = diagnostic.code
    if code in ("HL101", "HL702") and "replace_key" in data:
        return _rename_key(doc, diagnostic, data["replace_key"])
    if code == "HL308" and "replace_key" in data:  # a guess at an argument: offered only
        return _rename_key(doc, diagnostic, data["replace_key"], preferred=False)
    if code in ("HL104", "HL606") and "replace_value" in data:
        return _set_value(doc, diagnostic, data["replace_value"])
    if code in ("HL303", "HL304"):
        return _set_value(doc, diagnostic, 1, "Set count: 1")
    if code == "HL111" and "replace_value" in data:  # the value HoloDeck reads, unquoted
        return _set_value(doc, diagnostic, data["replace_value"], requote=False)
    if code == "HL103" and "quote" in data:
        return _quote(doc, diagnostic, data["quote"])
    if code == "HL201":
        loaded = load_yaml(text)
        return _turns_conflict(doc, loaded, diagnostic) if loaded.parsed else []
    if code in _FIELD_FIXES:
        loaded = load_yaml(text)
        return _field_fixes(doc, loaded, diagnostic) if loaded.parsed else []
    return []


_FIELD_FIXES = ("HL501", "HL402", "HL202", "HL105", "HL101", "HL701", "HL703")


def _field_fixes(doc: Text, loaded: LoadedYaml, d: Diagnostic) -> list[Fix]:
    """The fixes of `field_fixes`: one obvious fix is preferred (`check --fix` applies
    it); a choice (which matcher to keep) is offered, never preferred."""
    found: list[tuple[str, list[TextEdit], bool]] = []
    if d.code == "HL501":
        found.append(
            ("Write the grader as module:function", field_fixes.grader_colon(doc, loaded, d), True)
        )
    elif d.code == "HL402":
        for kept in field_fixes.MATCHERS:
            found.append(
                (f"Keep '{kept}' only", field_fixes.keep_matcher(doc, loaded, d, kept), False)
            )
    elif d.code == "HL202":
        found.append(("Insert a turn", field_fixes.insert_turn(doc, loaded, d), True))
    elif d.code == "HL105":
        found.append(
            ("Set the tolerance to 0", field_fixes.tolerance_to_zero(doc, loaded, d), True)
        )
    elif d.code == "HL701":
        found.append(
            ("Delete this field (HoloDeck 0.7 removed it)",
             upgrade_fixes.delete_removed_field(doc, loaded, d), True)
        )
    elif d.code == "HL703":
        found.append(
            ("Load the project's CLAUDE.md: setting_sources: [project]",
             upgrade_fixes.write_setting_sources(doc, loaded, d), False)
        )
    elif d.code == "HL101" and not (d.data or {}).get("replace_key"):
        found.append(
            (
                "Remove this field (code metrics do not read it)",
                field_fixes.remove_foreign_field(doc, loaded, d),
                True,
            )
        )
    return [
        Fix(title, _replace_all(doc, edits), preferred=preferred, diagnostic=d)
        for title, edits, preferred in found
        if edits
    ]


def _replace_all(doc: Text, edits: list[TextEdit]) -> TextEdit:
    return minimal_edit(doc.text, apply(doc.text, edits))


def _to_multi_turn(doc: Text, loaded: LoadedYaml, case: YamlPath) -> str | None:
    entries = block_entries(doc, loaded.source_map, case)
    if not entries:
        return None
    keys = {e.key for e in entries}
    if "turns" in keys or "input" not in keys:
        return None
    moving = {k for k in SINGLE_TURN_FIELDS if k in keys}
    col = entries[0].key_col
    nl = doc.newline
    chunks = [doc.text[entries[a].key_start : entries[b].end] for a, b in runs(entries, moving)]
    turn = (nl + " " * (col + 4)).join(reindent(c, 4) for c in chunks)
    block = f"turns:{nl}{' ' * (col + 2)}- {turn}"
    kept = [e for e in entries if e.key not in moving]
    if not kept:  # the whole mapping becomes the one turn
        return doc.text[: entries[0].key_start] + block + doc.text[entries[-1].end :]
    spans: list[tuple[int, int, str]] = []
    for first, last in runs(entries, moving):
        cut = removal(doc, entries, first, last)
        if cut is None:
            return None
        spans.append((*cut, ""))
    spans.append((kept[-1].end, kept[-1].end, nl + " " * col + block))
    text = doc.text
    for start, end, new_text in sorted(spans, key=lambda s: (s[0], s[1]), reverse=True):
        text = text[:start] + new_text + text[end:]
    return text


def refactors_at(text: str, line: int, character: int) -> list[Fix]:
    """Rewrites offered where the cursor stands (single-turn -> multi-turn)."""
    loaded = load_yaml(text)
    if not loaded.parsed:
        return []
    path = loaded.source_map.path_at(line, character)
    if path is None:
        return []
    case = _case_of(path, isinstance(loaded.data, list))
    if case is None:
        return []
    converted = _to_multi_turn(Text(text), loaded, case)
    if converted is None:
        return []
    return [
        Fix("Convert to a multi-turn test case", minimal_edit(text, converted), kind="refactor")
    ]
