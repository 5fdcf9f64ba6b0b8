"""Neovim headless with a Lua script that drives the server and writes what the editor
ends up with to a JSON file (tests/server/nvim/*.lua)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from tests.server.lsp_client import SERVER, server_env

NVIM = shutil.which("nvim")
SCRIPTS = Path(__file__).parent / "nvim"


def run_script(script: str, root: Path, file: Path, scratch: Path, **extra: str) -> Any:
    """Run ``script`` on ``file`` in the workspace ``root``; its JSON result (no error)."""
    assert NVIM is not None
    out = scratch / "nvim.json"
    home = scratch / "home"
    home.mkdir(exist_ok=True)
    env = server_env(home)
    env.update(
        HL_CMD=json.dumps(SERVER),
        HL_ROOT=str(root),
        HL_FILE=str(file),
        HL_OUT=str(out),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local"),
        XDG_STATE_HOME=str(home / ".state"),
        **extra,
    )
    done = subprocess.run(
        [NVIM, "--headless", "--clean", "-n", "-c", f"luafile {SCRIPTS / script}"],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert out.exists(), done.stderr
    result = json.loads(out.read_text())
    assert "error" not in result, result
    return result
