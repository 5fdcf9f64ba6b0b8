"""Every link between the repository's Markdown pages leads somewhere: a relative link names
a file of the repository, and its `#anchor`, if any, a heading of that page (GitHub's
anchors: lower case, punctuation dropped, spaces as hyphens)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import REPO

_LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]+)\)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


def pages() -> list[Path]:
    top = [REPO / name for name in ("README.md", "CONTRIBUTING.md", "SECURITY.md")]
    return [*top, *sorted((REPO / "docs").rglob("*.md")), REPO / "vscode-extension" / "README.md"]


def _prose(path: Path) -> list[str]:
    """The page's lines outside fenced code."""
    out, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            out.append(line)
    return out


def anchor_of(heading: str) -> str:
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    for line in _prose(path):
        heading = _HEADING.match(line)
        if heading is None:
            continue
        base = anchor_of(heading.group(2))
        anchor, n = base, 1
        while anchor in found:  # GitHub numbers repeated headings: x, x-1, x-2
            anchor, n = f"{base}-{n}", n + 1
        found.add(anchor)
    return found


def broken_links(path: Path) -> list[str]:
    broken = []
    for line in _prose(path):
        for target in _LINK.findall(re.sub(r"`[^`]*`", "", line)):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
                continue
            file, _, anchor = target.partition("#")
            linked = (path.parent / file).resolve() if file else path
            if not linked.exists():
                broken.append(f"{target}: no such file")
            elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                broken.append(f"{target}: no heading #{anchor} in {linked.name}")
    return broken


def test_every_link_of_every_page_leads_somewhere() -> None:
    found = {
        page.relative_to(REPO).as_posix(): broken
        for page in pages()
        if (broken := broken_links(page))
    }
    assert found == {}


def test_the_checker_finds_a_broken_link(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    (tmp_path / "other.md").write_text("# Other `thing`: here\n", encoding="utf-8")
    page.write_text(
        "# Top\n[a](other.md#other-thing-here) [b](other.md#nope) [c](gone.md) [d](#top)\n"
        "```\n[e](gone-too.md)\n```\n",
        encoding="utf-8",
    )
    assert broken_links(page) == [
        "other.md#nope: no heading #nope in other.md",
        "gone.md: no such file",
    ]
