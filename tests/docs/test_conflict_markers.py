"""No file of the repository holds a merge-conflict marker (docs/runner.md once shipped two
contradicting halves of one paragraph)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# A marker is a whole line: seven of one character, and for the outer two a space and a
# label or nothing. Markdown setext headings use `=` under text, never exactly seven alone
# between a `<<<<<<<` and a `>>>>>>>` line, so the three are only reported together.
_OPEN = re.compile(rb"^<{7}( |$)", re.MULTILINE)
_CLOSE = re.compile(rb"^>{7}( |$)", re.MULTILINE)


def _tracked_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=False
    )
    if listed.returncode != 0:  # not a git checkout (an sdist): walk the tree instead
        skip = {".git", ".venv", "node_modules", ".cache", "out", "dist"}
        return [
            p for p in ROOT.rglob("*")
            if p.is_file() and not skip.intersection(p.relative_to(ROOT).parts)
        ]
    return [ROOT / name for name in listed.stdout.decode().split("\0") if name]


def test_no_file_holds_a_merge_conflict_marker() -> None:
    marked = []
    for path in _tracked_files():
        if not path.is_file() or path.stat().st_size > 5_000_000:
            continue
        data = path.read_bytes()
        if _OPEN.search(data) and _CLOSE.search(data):
            marked.append(str(path.relative_to(ROOT)))
    assert marked == []


def test_a_marker_is_found_where_one_is_left(tmp_path: Path) -> None:
    text = b"intro\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> main\n"
    assert _OPEN.search(text) and _CLOSE.search(text)
    assert not _OPEN.search(b"a << b\n<<<<<<<<< eight\n")
