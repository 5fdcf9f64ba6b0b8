"""The commit a run ran at, as `git rev-parse HEAD` tells it, read from the repository's
files: no `git` process, so nothing of the repository's configuration runs (a hook, an
`fsmonitor`), and it works where git is not installed. None outside a repository, on an
unborn branch, or with a ref store this does not read (reftable)."""

from __future__ import annotations

import re
from pathlib import Path

from holodeck_lsp.named_files import NotReadable, read_text

_HASH = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
_SMALL = 64_000  # HEAD, a loose ref, a `.git` file
_PACKED = 64_000_000  # packed-refs of a large repository
_REF = re.compile(r"refs/[A-Za-z0-9._/@+-]+")


def _text(path: Path, limit: int = _SMALL) -> str | None:
    try:
        return read_text(path, limit)
    except NotReadable:
        return None


def _git_dir(folder: Path) -> Path | None:
    """The repository's git folder for ``folder`` (a `.git` folder, or the one a `.git`
    file of a worktree or submodule points to)."""
    for candidate in (folder, *folder.parents):
        dot_git = candidate / ".git"
        if dot_git.is_dir():
            return dot_git
        if dot_git.is_file():
            text = _text(dot_git) or ""
            if text.startswith("gitdir:"):
                return (candidate / text[len("gitdir:") :].strip()).resolve()
            return None
    return None


def _packed(common: Path, ref: str) -> str | None:
    for line in (_text(common / "packed-refs", _PACKED) or "").splitlines():
        parts = line.split(" ", 1)
        if len(parts) == 2 and parts[1].strip() == ref and _HASH.fullmatch(parts[0]):
            return parts[0]
    return None


def git_commit(folder: Path) -> str | None:
    """`HEAD`'s commit for the repository holding ``folder``; None when there is none."""
    git_dir = _git_dir(folder.resolve())
    if git_dir is None:
        return None
    head = (_text(git_dir / "HEAD") or "").strip()
    if _HASH.fullmatch(head):  # a detached HEAD
        return head
    if not head.startswith("ref:"):
        return None
    ref = head[len("ref:") :].strip()
    if not _REF.fullmatch(ref) or ".." in ref:
        return None
    common_text = (_text(git_dir / "commondir") or "").strip()
    common = (git_dir / common_text).resolve() if common_text else git_dir
    for base in dict.fromkeys((git_dir, common)):
        loose = (_text(base / ref) or "").strip()
        if _HASH.fullmatch(loose):
            return loose
    return _packed(common, ref)
