"""SECURITY.md states the trust model and `tests/security/` keeps it: every test module here
is named by the page beside the promise it keeps, and every module the page names exists."""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).parent
PAGE = HERE.parents[1] / "SECURITY.md"


def test_every_security_test_module_is_named_by_security_md_and_only_those() -> None:
    named = set(re.findall(r"\[`(test_\w+\.py)`\]", PAGE.read_text(encoding="utf-8")))
    modules = {p.name for p in HERE.glob("test_*.py")} - {Path(__file__).name}
    assert named == modules


def test_readme_and_the_editor_guide_link_the_trust_model() -> None:
    root = PAGE.parent
    assert "(SECURITY.md)" in (root / "README.md").read_text(encoding="utf-8")
    assert "(../SECURITY.md)" in (root / "docs" / "editors.md").read_text(encoding="utf-8")
