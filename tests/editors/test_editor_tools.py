"""The editor configs read by their own tools: Neovim's LuaJIT parses both Lua files and
runs the nvim-lspconfig entry's root check on a scratch tree; rustfmt parses the Zed
extension. Slow: they need Neovim (tests/server/nvim/setup.sh) and rustfmt."""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.server.neovim import NVIM

pytestmark = pytest.mark.slow
NEOVIM = REPO / "editors" / "neovim"
HARNESS = Path(__file__).with_name("nvim_root.lua")


def _tree(root: Path) -> dict[str, Path]:
    """A repository with agents in two folders, one without, and two loose folders."""
    files = {
        "agent": root / "repo" / "support" / "agent.yaml",
        "its suite": root / "repo" / "support" / "cases" / "suite.yaml",
        "beside it": root / "repo" / "support" / "k8s.yaml",
        "named agent": root / "repo" / "bots" / "triage.agent.yaml",
        "no agent near": root / "repo" / "deploy" / "k8s.yaml",
        "workflow": root / "repo" / ".github" / "workflows" / "ci.yml",
        "loose agent": root / "loose" / "agent.yml",
        "below it": root / "loose" / "notes" / "cases.yaml",
        "plain": root / "plain" / "compose.yaml",
    }
    (root / "repo" / ".git").mkdir(parents=True)
    for path in files.values():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("a: 1\n")
    return files


@pytest.mark.skipif(NVIM is None, reason="nvim is not installed: tests/server/nvim/setup.sh")
def test_neovim_parses_the_configs_and_attaches_only_near_an_agent(tmp_path: Path) -> None:
    assert NVIM is not None
    files = _tree(tmp_path / "tree")
    out = tmp_path / "out.json"
    lua = [NEOVIM / "lsp" / "holodeck_lsp.lua", NEOVIM / "yamlls_alongside.lua"]
    env = {
        "HOME": str(tmp_path),
        "PATH": "/usr/bin:/bin",
        "HL_CONFIG": str(lua[0]),
        "HL_PARSE": json.dumps([str(p) for p in lua]),
        "HL_FILES": json.dumps([str(p) for p in files.values()]),
        "HL_OUT": str(out),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    done = subprocess.run(
        [NVIM, "--headless", "--clean", "-n", "-c", f"luafile {HARNESS}"],
        env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert out.exists(), done.stderr
    result = json.loads(out.read_text())
    assert "error" not in result, result
    assert result["parsed"] == {str(p): True for p in lua}
    assert result["cmd"] == ["holodeck-lsp", "serve"]
    assert result["filetypes"] == ["yaml"]
    assert result["root_markers"] == [".git", "agent.yaml", "agent.yml"]
    repo, loose = str(tmp_path / "tree" / "repo"), str(tmp_path / "tree" / "loose")
    roots = {name: result["roots"][str(path)] for name, path in files.items()}
    assert roots == {
        "agent": repo,
        "its suite": repo,
        "beside it": repo,
        "named agent": repo,
        "no agent near": None,  # a folder of the repository that no agent is above
        "workflow": None,
        "loose agent": loose,
        "below it": loose,
        "plain": None,
    }


@pytest.mark.skipif(shutil.which("rustfmt") is None, reason="rustfmt is not installed")
def test_rustfmt_parses_the_zed_extension() -> None:
    source = REPO / "editors" / "zed" / "src" / "lib.rs"
    # rustup's proxy reads its toolchain choice from the real home (the suite moves HOME).
    env = {**os.environ, "HOME": pwd.getpwuid(os.getuid()).pw_dir}
    done = subprocess.run(
        ["rustfmt", "--check", "--edition", "2021", str(source)],
        capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
