"""Quick fixes for what HoloDeck 0.7 changed (validation/lints/upgrade_from_06.py):
a removed field deleted (HL701), `claude.setting_sources: [project]` written (HL703).
(`oneOf` -> `anyOf`, HL702, is a key rename; a subagent's model id -> its alias is a value
change: fixes.py does both.)

Like the others, each re-reads the current text, checks that what it changes is still
there, and touches those lines only.
"""

from __future__ import annotations

from holodeck_lsp.editing.field_fixes import path_with_key_at
from holodeck_lsp.editing.text_edits import Text, TextEdit, block_entries, remove_entry
from holodeck_lsp.validation.diagnostics import Diagnostic, Range
from holodeck_lsp.validation.upgrade_facts import removed_field
from holodeck_lsp.validation.yaml.loader import LoadedYaml
from holodeck_lsp.validation.yaml.source_map import YamlPath


def _cut(doc: Text, loaded: LoadedYaml, path: YamlPath) -> list[TextEdit]:
    """Delete the entry at ``path``; the mapping holding it too when it is its only entry
    (`metrics:` left empty would be `null`, which HoloDeck refuses where a block is due)."""
    parent = path[:-1]
    entries = block_entries(doc, loaded.source_map, parent)
    if not entries:
        return []
    if len(entries) == 1 and parent:
        return _cut(doc, loaded, parent)
    return remove_entry(doc, entries, str(path[-1]))


def delete_removed_field(doc: Text, loaded: LoadedYaml, d: Diagnostic) -> list[TextEdit]:
    """HL701: the field HoloDeck 0.7 removed, deleted with its value."""
    path = path_with_key_at(loaded.source_map, d.range)
    if path is None or removed_field(path) is None:
        return []
    return _cut(doc, loaded, path)


def write_setting_sources(doc: Text, loaded: LoadedYaml, d: Diagnostic) -> list[TextEdit]:
    """HL703: `setting_sources: [project]` as the last entry of the `claude:` block, or a
    new `claude:` block at the end of the file."""
    data = loaded.data
    if not isinstance(data, dict):
        return []
    claude = data.get("claude")
    if claude is None and "claude" not in data:
        info = loaded.source_map.get(())
        if info is None or info.kind != "mapping" or doc.text.lstrip().startswith("{"):
            return []
        end = len(doc.text)
        lead = "" if doc.text.endswith(("\n", "\r\n")) or not doc.text else doc.newline
        block = f"{lead}claude:{doc.newline}  setting_sources: [project]{doc.newline}"
        return [TextEdit(Range(doc.position(end), doc.position(end)), block)]
    if not isinstance(claude, dict) or "setting_sources" in claude:
        return []
    entries = block_entries(doc, loaded.source_map, ("claude",))
    if not entries or entries[0].dash_first:
        return []
    last = entries[-1]
    at = last.end
    line = f"{doc.newline}{' ' * entries[0].key_col}setting_sources: [project]"
    return [TextEdit(Range(doc.position(at), doc.position(at)), line)]
