"""Pydantic's plugins: `check` and `serve` look for none (a pre-commit hook's start-up), in
their own processes only; `run` loads them, as its in-process agents, tools and graders
expect (logfire's, for one). A plugin installed beside the package announces itself."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from holodeck_lsp import pydantic_plugins

REPO = Path(__file__).resolve().parents[2]
PROGRAM = Path(sys.executable).parent / "holodeck-lsp"
PLUGIN = """import os, pathlib
pathlib.Path(os.environ["PLUGIN_MARKER"]).write_text("loaded")


class _Plugin:
    def new_schema_validator(self, *args, **kwargs):
        return None, None, None


plugin = _Plugin()
"""


def _installed_plugin(site: Path) -> None:
    """A distribution declaring a pydantic plugin, as `pip install` would leave it."""
    info = site / "announcing_plugin-1.0.dist-info"
    info.mkdir(parents=True)
    (site / "announcing_plugin.py").write_text(PLUGIN)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: announcing-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[pydantic]\nannouncing = announcing_plugin:plugin\n")


def _loads_plugin(tmp_path: Path, *args: str) -> bool:
    site, marker = tmp_path / "site", tmp_path / "marker"
    _installed_plugin(site)
    env = {**os.environ, "PYTHONPATH": str(site), "PLUGIN_MARKER": str(marker)}
    env.pop(pydantic_plugins.VARIABLE, None)
    subprocess.run([str(PROGRAM), *args], cwd=tmp_path / "convfinqa", env=env,
                   capture_output=True, timeout=120, check=False)
    return marker.exists()


@pytest.fixture
def example(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "examples" / "convfinqa", tmp_path / "convfinqa")
    return tmp_path


def test_run_loads_the_installed_pydantic_plugins(example: Path) -> None:
    assert _loads_plugin(example, "run", "agent.yaml", "--replay", "replay.jsonl", "-q")


def test_check_looks_for_no_plugin(example: Path) -> None:
    assert not _loads_plugin(example, "check", "agent.yaml")


def test_only_our_own_processes_go_without(monkeypatch: pytest.MonkeyPatch) -> None:
    # serve and check: the variable is set for this process (and the worker it forks), and
    # left out of the environment of a child that runs code not ours (a grader's import,
    # the `run` an editor starts).
    monkeypatch.delenv(pydantic_plugins.VARIABLE, raising=False)
    monkeypatch.setattr(pydantic_plugins, "_set_here", False)
    pydantic_plugins.disable_plugins()
    assert os.environ[pydantic_plugins.VARIABLE] == "__all__"
    assert pydantic_plugins.VARIABLE not in pydantic_plugins.child_environment()
    # A value the user set is theirs: kept, and passed on.
    monkeypatch.setenv(pydantic_plugins.VARIABLE, "logfire")
    monkeypatch.setattr(pydantic_plugins, "_set_here", False)
    pydantic_plugins.disable_plugins()
    assert pydantic_plugins.child_environment()[pydantic_plugins.VARIABLE] == "logfire"
