"""Every Python interpreter we start runs isolated from the folder it starts in.

Python puts the working directory first on `sys.path` for `-c` and `-m`, so a workspace
holding `json/__init__.py` would run before any of our code. A child started here gets `-I`
(no working directory, no PYTHONPATH, no user site-packages) and then this process's own
import path, minus the working directory, set before anything is imported: our package and
its libraries import as they do here (an editable install, the VS Code bundle's PYTHONPATH),
and nothing of the workspace does unless the child's code asks for it by name.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import holodeck_lsp

_PACKAGE_HOME = Path(holodeck_lsp.__file__).resolve().parent.parent
_ISOLATED = "_holodeck_isolated"


def _is_working_directory(entry: str, cwd: Path) -> bool:
    if not entry or not os.path.isabs(entry):  # '' and relative entries resolve in the cwd
        return True
    try:
        here = Path(entry).resolve()
    except OSError:
        return False
    # Our own package may live in the working directory (a checkout run in place).
    return here == cwd and here != _PACKAGE_HOME


def import_path() -> list[str]:
    """This process's `sys.path` without the working directory or relative entries."""
    try:
        cwd = Path.cwd().resolve()
    except OSError:  # the working directory was removed: only relative entries point at it
        cwd = Path("/nonexistent-working-directory")
    return [entry for entry in sys.path if not _is_working_directory(entry, cwd)]


def drop_working_directory() -> None:
    """Take the working directory off this process's own `sys.path` (`python -m` puts it
    first), so a module imported later, here or in a child forked from here, is never the
    workspace's."""
    sys.path[:] = import_path()


def python_command(code: str, *args: str) -> list[str]:
    """`python -I -c CODE ARGS...`, with CODE running on `import_path()`."""
    prelude = f"import sys\nsys.path[:] = {import_path()!r}\n"
    return [sys.executable, "-I", "-c", prelude + code, *args]


def isolate_multiprocessing_helpers() -> None:
    """multiprocessing starts its forkserver and resource tracker as `python -c ...` with
    the flags of this interpreter (`util._args_from_interpreter_flags`, on every Python from
    3.10 to 3.13): add `-I`, so that their first import, `multiprocessing` itself, is never
    the working directory's. Their children are forked from them and get this process's
    `sys.path` from multiprocessing. Idempotent; stays for the life of the process, since
    multiprocessing restarts a helper that died whenever it next needs one."""
    from multiprocessing import util

    current: Callable[[], list[str]] = getattr(util, "_args_from_interpreter_flags")  # noqa: B009
    if getattr(current, _ISOLATED, False):
        return

    def isolated() -> list[str]:
        flags = current()
        return flags if "-I" in flags else [*flags, "-I"]

    setattr(isolated, _ISOLATED, True)
    setattr(util, "_args_from_interpreter_flags", isolated)  # noqa: B010 - private, not in the stubs
