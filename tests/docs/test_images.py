"""Every image README.md and docs/ show is in the repository, a PNG, and taken by a script
the repository holds (the HTML report's by `tests/docs/report_screenshot.py`)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import REPO

IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")


def _shown() -> list[tuple[Path, Path]]:
    pages = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
    return [
        (page, (page.parent / link).resolve())
        for page in pages
        for link in IMAGE.findall(page.read_text(encoding="utf-8"))
        if "://" not in link
    ]


def test_every_image_the_docs_show_is_a_png_in_the_repository() -> None:
    shown = _shown()
    assert shown, "the docs show the HTML report's screenshots"
    missing = [f"{page.name}: {image}" for page, image in shown if not image.is_file()]
    assert missing == []
    assert {image.read_bytes()[:8] for _, image in shown} == {b"\x89PNG\r\n\x1a\n"}


def test_the_report_screenshots_are_the_ones_the_script_takes() -> None:
    script = (REPO / "tests" / "docs" / "report_screenshot.py").read_text(encoding="utf-8")
    taken = set(re.findall(r'IMAGES / "([^"]+)"', script))
    shown = {image.name for _, image in _shown() if image.name.startswith("html-report")}
    assert shown == taken == {"html-report.png", "html-report-failure.png"}
