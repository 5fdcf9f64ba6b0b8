"""The run history `holodeck test` kept (vendored), copied to a scratch folder per test: the
history writes its index beside the agent, never into the repository."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import VENDORED

VENDORED_HISTORY = VENDORED / "holodeck" / "history"


@pytest.fixture
def holodeck_history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the vendored history in `history/` of the test's scratch folder, which is
    the working folder (paths print as `history/...`): its agent file."""
    shutil.copytree(VENDORED_HISTORY, tmp_path / "history")
    monkeypatch.chdir(tmp_path)
    return Path("history") / "agent.yaml"
