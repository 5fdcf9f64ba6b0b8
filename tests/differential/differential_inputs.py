"""Where the differential tests find their inputs: the corpus, the fixtures and our own cases."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import CORPUS

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CASES = HERE / "cases"


def corpus_dir() -> Path:
    """The real-world files HoloDeck 0.7.1 accepted when they were collected (vendored)."""
    return CORPUS


def yaml_files(root: Path) -> list[Path]:
    """Every YAML file under ``root``, sorted, absolute."""
    found = [p for p in root.rglob("*") if p.is_file() and p.suffix in (".yaml", ".yml")]
    return sorted(p.resolve() for p in found)


def fixture_files() -> list[Path]:
    """The files the differential test compares: the lead's fixtures plus our own cases."""
    fixtures = REPO / "tests" / "fixtures"
    roots = [fixtures / "valid", fixtures / "invalid", CASES]
    return [f for root in roots if root.is_dir() for f in yaml_files(root)]
