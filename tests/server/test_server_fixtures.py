"""What only the language server reports, for each fixture in tests/fixtures/server: its
`agent.yaml` opened in the real server, run with the settings of its `settings.json`,
gives the diagnostics of its `expected.txt`, compared whole as `check`'s are (run-only
codes have tests/fixtures/run, tests/runner/test_config_fixtures.py)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from tests.server.lsp_client import open_doc, push_capabilities, start, stop

CASES = sorted(p for p in (FIXTURES / "server").iterdir() if (p / "agent.yaml").exists())


@pytest.mark.parametrize("folder", CASES, ids=lambda p: p.name)
async def test_server_fixture_diagnostics(folder: Path, tmp_path: Path) -> None:
    workspace = tmp_path / "ws"  # a copy: the server may write beside what it imports
    shutil.copytree(folder, workspace)
    settings = json.loads((folder / "settings.json").read_text(encoding="utf-8"))
    client = await start(workspace, push_capabilities(), options=settings)
    try:
        found = await client.diagnostics_of(open_doc(client, workspace / "agent.yaml"), 1)
    finally:
        await stop(client)
    got = [f"agent.yaml:{d.range.start.line + 1}:{d.range.start.character + 1}-"
           f"{d.range.end.line + 1}:{d.range.end.character + 1} "
           f"{d.severity.name.lower() if d.severity else ''} {d.code}" for d in found]
    expected_file = folder / "expected.txt"
    if os.environ.get("HOLODECK_UPDATE_FIXTURES"):
        expected_file.write_text("".join(f"{line}\n" for line in got), encoding="utf-8")
    assert got == expected_file.read_text(encoding="utf-8").splitlines()
