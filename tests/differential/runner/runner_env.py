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

import hashlib
import os
import sys
from pathlib import Path

from tests.differential.oracle_env import (
    _run,
    build_main,
    ensure_venv,
    pip_for_new_venv,
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
    pip = pip_for_new_venv(venv)
    args = ["install", "-q", "--no-deps", "--no-input", "--disable-pip-version-check"]
    _run([*pip, *args, "-r", str(REQUIREMENTS_FILE)], "installing HoloDeck's runner")
    _run(
        [str(venv_python(venv)), "-c", "import holodeck.lib.test_runner.executor, agents, openai"],
        "importing HoloDeck's runner",
    )


def ensure_runner_env(*, force: bool = False) -> Path:
    """Build the runner venv unless an up-to-date one exists; return its `holodeck` CLI."""
    venv = venv_dir()
    ensure_venv(
        venv,
        ready=is_ready,
        build=_create_and_install,
        marker=venv / _READY_MARKER,
        fingerprint=fingerprint(),
        what="holodeck-ai==0.7.1",
        force=force,
    )
    return holodeck_cli(venv)


def main(argv: list[str] | None = None) -> int:
    return build_main(argv, __doc__, ensure_runner_env)


if __name__ == "__main__":
    raise SystemExit(main())
