"""Build (once, cached) the private virtual environment that runs HoloDeck 0.7.1's own loader.

The environment is separate from the project's venv on purpose: HoloDeck declares ~50 heavy
runtime dependencies, but its configuration loader only needs pydantic and PyYAML. So the
distribution is installed with ``--no-deps`` next to a short list of exact pins, which keeps the
build to a few seconds and makes it reproducible.

Usable as a module (``ensure_oracle_env()``) and as a script::

    python -m tests.differential.oracle_env          # build if needed, print the interpreter
    python tests/differential/oracle_env.py --force  # rebuild from scratch
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

HOLODECK_REQUIREMENT = "holodeck-ai==0.7.1"

# Everything `holodeck.config.loader` (and the model modules it imports) needs at import and
# validation time, found by installing HoloDeck with --no-deps and adding packages until the
# whole corpus loaded. Exact pins: the oracle must not drift when a dependency releases.
SUPPORT_REQUIREMENTS: tuple[str, ...] = (
    "pydantic==2.14.4",
    "pydantic-core==2.50.5",
    "typing-extensions==4.16.0",
    "typing-inspection==0.4.5",
    "annotated-types==0.8.0",
    "PyYAML==6.0.4",
)

REQUIREMENTS: tuple[str, ...] = (HOLODECK_REQUIREMENT, *SUPPORT_REQUIREMENTS)

VENV_ENV_VAR = "HOLODECK_ORACLE_VENV"
_READY_MARKER = ".holodeck-oracle-ready"
_DEFAULT_INDEX = "https://pypi.org/simple/"


class OracleEnvError(RuntimeError):
    """The oracle environment could not be built."""


class IndexUnreachableError(OracleEnvError):
    """The package index cannot be reached, so the oracle cannot be installed."""


def repo_root() -> Path:
    """The project checkout this file lives in."""
    return Path(__file__).resolve().parents[2]


def venv_dir() -> Path:
    """Where the oracle venv lives: ``$HOLODECK_ORACLE_VENV`` or ``<repo>/.cache/...``."""
    override = os.environ.get(VENV_ENV_VAR)
    if override:
        return Path(override).expanduser().resolve()
    return repo_root() / ".cache" / "holodeck-oracle" / "venv"


def venv_python(venv: Path) -> Path:
    """The interpreter inside ``venv``."""
    if os.name == "nt":
        return venv / "Scripts" / "python.exe"
    return venv / "bin" / "python"


def requirements_fingerprint() -> str:
    """Identifies the requirement set plus the interpreter the venv was built from."""
    text = "\n".join((*REQUIREMENTS, sys.version.split()[0]))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def is_ready(venv: Path) -> bool:
    """True when ``venv`` was completely built for the current requirement set."""
    marker = venv / _READY_MARKER
    return (
        venv_python(venv).exists()
        and marker.exists()
        and marker.read_text(encoding="utf-8").strip() == requirements_fingerprint()
    )


def index_reachable(timeout: float = 10.0) -> bool:
    """Whether the configured package index answers (used to tell 'offline' from 'broken')."""
    index = os.environ.get("PIP_INDEX_URL") or _DEFAULT_INDEX
    url = index.rstrip("/") + "/holodeck-ai/"
    if not url.startswith(("http://", "https://", "file:")):
        return False
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return bool(200 <= response.status < 400)
    except (urllib.error.URLError, OSError, ValueError):
        return False


@contextlib.contextmanager
def _build_lock(venv: Path) -> Iterator[None]:
    # Several pytest processes may ask for the env at once; only one builds it.
    venv.parent.mkdir(parents=True, exist_ok=True)
    with open(venv.parent / f".{venv.name}.lock", "w", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _run(cmd: list[str], what: str) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise OracleEnvError(
            f"{what} failed (exit {done.returncode}): {' '.join(cmd)}\n"
            f"{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
        )


def pip_for_new_venv(venv: Path) -> list[str]:
    """Create ``venv`` and return the pip command that installs into it."""
    python = str(venv_python(venv))
    if importlib.util.find_spec("pip") is not None:
        # Reusing this interpreter's pip (`--python`) skips seeding pip into the new venv,
        # which is most of the build time.
        _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], "creating the venv")
        return [sys.executable, "-m", "pip", "--python", python]
    _run([sys.executable, "-m", "venv", str(venv)], "creating the venv")
    return [python, "-m", "pip"]


def _create_and_install(venv: Path) -> None:
    pip = pip_for_new_venv(venv)
    install_args = ["install", "--no-deps", "--no-input", "--disable-pip-version-check"]
    _run([*pip, *install_args, *REQUIREMENTS], "installing the oracle packages")
    python = str(venv_python(venv))
    _run([python, "-c", "import holodeck.config.loader"], "importing the HoloDeck loader")


def ensure_venv(
    venv: Path,
    *,
    ready: Callable[[Path], bool],
    build: Callable[[Path], None],
    marker: Path,
    fingerprint: str,
    what: str,
    force: bool = False,
) -> None:
    """Build ``venv`` with ``build`` unless ``ready`` says it is up to date; under a lock,
    so concurrent test processes build it once. A failed build leaves nothing behind and
    raises `IndexUnreachableError` when the package index cannot be reached."""
    with _build_lock(venv):
        if not force and ready(venv):
            return
        shutil.rmtree(venv, ignore_errors=True)
        try:
            build(venv)
        except OracleEnvError as exc:
            shutil.rmtree(venv, ignore_errors=True)
            if not index_reachable():
                raise IndexUnreachableError(
                    f"the package index is unreachable, cannot install {what}"
                ) from exc
            raise
        marker.write_text(fingerprint + "\n", encoding="utf-8")


def build_main(argv: list[str] | None, doc: str | None, ensure: Callable[..., Path]) -> int:
    """The command line of a venv builder: `[--force]`; prints what ``ensure`` returns."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0] if doc else None)
    parser.add_argument("--force", action="store_true", help="rebuild even if up to date")
    args = parser.parse_args(argv)
    started = time.monotonic()
    try:
        built = ensure(force=args.force)
    except OracleEnvError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(built)
    print(f"ready in {time.monotonic() - started:.1f}s", file=sys.stderr)
    return 0


def ensure_oracle_env(*, force: bool = False) -> Path:
    """Build the oracle venv unless an up-to-date one exists; return its interpreter.

    Raises ``IndexUnreachableError`` when the build fails and the package index is not
    reachable, ``OracleEnvError`` for any other failure.
    """
    venv = venv_dir()
    ensure_venv(
        venv,
        ready=is_ready,
        build=_create_and_install,
        marker=venv / _READY_MARKER,
        fingerprint=requirements_fingerprint(),
        what=HOLODECK_REQUIREMENT,
        force=force,
    )
    return venv_python(venv)


def main(argv: list[str] | None = None) -> int:
    return build_main(argv, __doc__, ensure_oracle_env)


if __name__ == "__main__":
    raise SystemExit(main())
