"""Build (once, cached) the private venv that runs HoloDeck 0.7.1's own `holodeck test`.

Unlike the loader oracle (`oracle_env.py`), the runner needs HoloDeck's whole dependency
closure: the OpenAI Agents SDK and its client, deepeval, the NLP metric libraries. The
closure is pinned exactly in `requirements.txt` beside this file (a `pip freeze` of a
resolved install) and installed with `--no-deps`, so a build resolves nothing and never
drifts. `openai` is held at 2.44.0: later releases break HoloDeck's OpenAI path.

    python -m tests.differential.runner.runner_env          # build if needed, print the CLI
    python -m tests.differential.runner.runner_env --force  # rebuild from scratch
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import os
import shutil
import sys
import time
from pathlib import Path

from tests.differential.oracle_env import (
    IndexUnreachableError,
    OracleEnvError,
    _build_lock,
    _run,
    index_reachable,
    repo_root,
    venv_python,
)

REQUIREMENTS_FILE = Path(__file__).with_name("requirements.txt")
VENV_ENV_VAR = "HOLODECK_RUNNER_VENV"
_READY_MARKER = ".holodeck-runner-ready"


def venv_dir() -> Path:
    """Where the runner venv lives: ``$HOLODECK_RUNNER_VENV`` or ``<repo>/.cache/...``."""
    override = os.environ.get(VENV_ENV_VAR)
    if override:
        return Path(override).expanduser().resolve()
    return repo_root() / ".cache" / "holodeck-runner" / "venv"


def holodeck_cli(venv: Path) -> Path:
    """The `holodeck` console script inside ``venv``."""
    return venv_python(venv).with_name("holodeck")


def fingerprint() -> str:
    """Identifies the pinned closure plus the interpreter the venv is built from."""
    text = REQUIREMENTS_FILE.read_text(encoding="utf-8") + sys.version.split()[0]
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def is_ready(venv: Path) -> bool:
    marker = venv / _READY_MARKER
    return (
        holodeck_cli(venv).exists()
        and marker.exists()
        and marker.read_text(encoding="utf-8").strip() == fingerprint()
    )


def _create_and_install(venv: Path) -> None:
    python = str(venv_python(venv))
    args = ["install", "-q", "--no-deps", "--no-input", "--disable-pip-version-check"]
    if importlib.util.find_spec("pip") is not None:
        _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], "creating the venv")
        pip = [sys.executable, "-m", "pip", "--python", python]
    else:
        _run([sys.executable, "-m", "venv", str(venv)], "creating the venv")
        pip = [python, "-m", "pip"]
    _run([*pip, *args, "-r", str(REQUIREMENTS_FILE)], "installing HoloDeck's runner")
    _run(
        [python, "-c", "import holodeck.lib.test_runner.executor, agents, openai"],
        "importing HoloDeck's runner",
    )


def ensure_runner_env(*, force: bool = False) -> Path:
    """Build the runner venv unless an up-to-date one exists; return its `holodeck` CLI."""
    venv = venv_dir()
    with _build_lock(venv):
        if not force and is_ready(venv):
            return holodeck_cli(venv)
        shutil.rmtree(venv, ignore_errors=True)
        try:
            _create_and_install(venv)
        except OracleEnvError as exc:
            shutil.rmtree(venv, ignore_errors=True)
            if not index_reachable():
                raise IndexUnreachableError(
                    "the package index is unreachable, cannot install holodeck-ai==0.7.1"
                ) from exc
            raise
        (venv / _READY_MARKER).write_text(fingerprint() + "\n", encoding="utf-8")
    return holodeck_cli(venv)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--force", action="store_true", help="rebuild even if up to date")
    args = parser.parse_args(argv)
    started = time.monotonic()
    try:
        cli = ensure_runner_env(force=args.force)
    except OracleEnvError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(cli)
    print(f"ready in {time.monotonic() - started:.1f}s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
