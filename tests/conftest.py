"""Shared test helpers: where fixtures and the real-world corpus live."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"
SHARED = Path(os.environ.get("HOLODECK_SHARED", REPO.parent / "shared"))
CORPUS = SHARED / "corpus" / "real"


@pytest.fixture(autouse=True)
def _no_user_config(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tests never read the developer's own ~/.holodeck/config.yaml."""
    monkeypatch.setenv("HOME", str(tmp_path_factory.mktemp("home")))
