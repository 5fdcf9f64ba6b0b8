"""Shared test helpers: where fixtures and the vendored real-world corpus live."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"
# Upstream files vendored verbatim with their licences (tests/data/README.md): the suite
# reads nothing outside the repository.
VENDORED = REPO / "tests" / "data"
CORPUS = VENDORED / "corpus" / "real"
HOLODECK_SCHEMA = VENDORED / "reference" / "holodeck-agent.schema.json"


@pytest.fixture(autouse=True)
def _no_user_config(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tests never read the developer's own ~/.holodeck/config.yaml."""
    monkeypatch.setenv("HOME", str(tmp_path_factory.mktemp("home")))
