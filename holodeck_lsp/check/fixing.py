"""`check --fix` / `--diff`: the editor's preferred quick fixes, applied to files.

A fix is applied only where the editor marks it preferred (the one obvious fix); a
choice, like which of `fuzzy` and `regex` to keep, is left to the user. The file is
validated again after each round, until no preferred fix is left (or a bound is hit).
Only a regular file inside the project of the checked file is ever written.
"""

from __future__ import annotations

import difflib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from holodeck_lsp.check.folder_walk import name_in_repository
from holodeck_lsp.check.results import FileResult
from holodeck_lsp.editing.fixes import fixes_for
from holodeck_lsp.editing.text_edits import Text, TextEdit, apply
from holodeck_lsp.file_writes import replace_whole
from holodeck_lsp.named_files import NotReadable, regular_file
from holodeck_lsp.validation.validate import ValidationContext, validate_text

MAX_ROUNDS = 20  # each round fixes every diagnostic whose edit overlaps no other


@dataclass
class FixedFile:
    file: str
    before: str
    after: str
    applied: int  # fixes applied
    project: Path | None = None  # the only folder it may be written in

    def diff(self) -> str:
        """A unified diff with git's headers: `a/PATH`, `b/PATH` from the repository root
        (`git apply`, `patch -p1` there); an absolute path outside any is named as is."""
        name = name_in_repository(Path(self.file))
        relative = not Path(name).is_absolute()
        lines = difflib.unified_diff(
            self.before.splitlines(keepends=True),
            self.after.splitlines(keepends=True),
            fromfile=f"a/{name}" if relative else name,
            tofile=f"b/{name}" if relative else name,
        )
        return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def _span(doc: Text, edit: TextEdit) -> tuple[int, int]:
    r = edit.range
    return doc.offset(r.start.line, r.start.character), doc.offset(r.end.line, r.end.character)


def _round(text: str, path: Path, context: ValidationContext) -> list[TextEdit]:
    """The preferred fixes of one validation whose edits do not overlap."""
    diagnostics = validate_text(text, path, context).by_file.get(str(path), [])
    doc = Text(text)
    taken: list[tuple[int, int]] = []
    edits: list[TextEdit] = []
    for diagnostic in sorted(diagnostics, key=lambda d: d.sort_key()):
        preferred = [f for f in fixes_for(text, diagnostic) if f.preferred]
        if not preferred:
            continue
        edit = preferred[0].edit
        start, end = _span(doc, edit)
        # Touching spans overlap too: two inserts at one offset would interleave.
        if any(start <= b and a <= end for a, b in taken):
            continue
        taken.append((start, end))
        edits.append(edit)
    return edits


def fix_text(text: str, path: Path, context: ValidationContext) -> FixedFile:
    """``text`` (the file at ``path``) with its preferred fixes applied."""
    current, applied = text, 0
    for _ in range(MAX_ROUNDS):
        edits = _round(current, path, context)
        fixed = apply(current, edits) if edits else current
        if fixed == current:
            break
        current = fixed
        applied += len(edits)
    return FixedFile(str(path), text, current, applied)


def fix_files(files: list[FileResult], context: ValidationContext) -> list[FixedFile]:
    """The files that a fix changes, fixed. A file without text (outside the project,
    not UTF-8) is never fixed: it is not shown, and not ours to write."""
    out = []
    for result in files:
        if result.text is None or result.project is None:
            continue
        fixed = fix_text(result.text, Path(result.file), context)
        fixed.project = result.project
        if fixed.after != result.text:
            out.append(fixed)
    return out


class WriteRefused(Exception):
    """Why a fixed file was not written."""


def write_fixed(fixed: FixedFile) -> None:
    """Write the fixed text over the file, atomically and keeping its mode: a temporary
    file in the same folder, renamed over it. Only a regular file inside the project, links
    resolved (the link itself stays); raises WriteRefused otherwise."""
    try:
        target, _size = regular_file(Path(fixed.file))
    except NotReadable as exc:
        raise WriteRefused(f"the file {exc.reason}") from None
    if fixed.project is None or not target.is_relative_to(fixed.project):
        raise WriteRefused(f"the file is {target}, outside the project ({fixed.project})")
    mode = stat.S_IMODE(os.stat(target).st_mode)
    # A rename would replace it all the same (and root may write anything): honour it.
    if not mode & stat.S_IWUSR or not os.access(target, os.W_OK):
        raise WriteRefused("the file is read-only")
    # As bytes: the text keeps the line endings it was read with.
    replace_whole(target, fixed.after.encode("utf-8"), mode, exact_mode=True)
