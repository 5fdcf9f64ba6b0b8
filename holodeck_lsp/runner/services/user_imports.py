"""Real imports of user code (graders, agent factories, function tools).

The agent file's folder goes first on `sys.path`, as HoloDeck does, with the standard
library guarded (`isolation/stdlib_guard.py`): a `json/` there never replaces `json`. A
module of the same name imported earlier from another suite's folder is dropped first, so
two suites with a `graders.py` each can run in one process; a module the environment
provides (pydantic, yaml, ...) is never dropped for a workspace's.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from holodeck_lsp.isolation.stdlib_guard import guard_standard_library


class ImportFailure(Exception):
    """User code could not be imported; the message is ready to print."""


def _put_first_on_path(folder: Path, named: str = "") -> set[str]:
    """Put ``folder`` first (``named``: a top-level name the suite names itself); every
    folder put first so far."""
    entry = str(folder)
    guard = guard_standard_library([entry], [named] if named else [])
    if entry in sys.path:
        sys.path.remove(entry)
    sys.path.insert(0, entry)
    return guard.user_folders


def _drop_foreign(module: str, folder: Path, user_folders: set[str]) -> None:
    top = module.split(".")[0]
    loaded = sys.modules.get(top)
    local = (folder / f"{top}.py").is_file() or (folder / top).is_dir()
    origin = getattr(loaded, "__file__", None) if loaded is not None else None
    if not local or origin is None:
        return
    where = Path(origin).resolve()
    if where.is_relative_to(folder) or not any(where.is_relative_to(f) for f in user_folders):
        return
    for name in [n for n in sys.modules if n == top or n.startswith(top + ".")]:
        del sys.modules[name]


def import_callable(spec: str, folder: Path) -> Callable[..., Any]:
    """Resolve ``module.path:name`` with ``folder`` first on the search path."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise ImportFailure(f"'{spec}' is not of the form module.path:callable")
    folder = folder.resolve()
    user_folders = _put_first_on_path(folder, module_name.split(".")[0])
    _drop_foreign(module_name, folder, user_folders)
    try:
        module = importlib.import_module(module_name)
    except BaseException as exc:  # import-time code may raise anything, even SystemExit
        raise ImportFailure(f"cannot import '{module_name}': {type(exc).__name__}: {exc}") from exc
    try:
        target = getattr(module, attr)
    except AttributeError:
        raise ImportFailure(f"module '{module_name}' has no attribute '{attr}'") from None
    if not callable(target):
        raise ImportFailure(f"'{spec}' is not callable (it is a {type(target).__name__})")
    return target  # type: ignore[no-any-return]


def load_function(file: Path, name: str, folder: Path) -> Callable[..., Any]:
    """Load ``name`` from the Python file ``file`` (a function tool)."""
    _put_first_on_path(folder.resolve())
    if not file.is_file():
        raise ImportFailure(f"tool file {file} not found")
    digest = hashlib.sha1(str(file.resolve()).encode()).hexdigest()[:12]
    module_name = f"_holodeck_tool_{file.stem}_{digest}"
    module = sys.modules.get(module_name)
    if module is None:
        spec = importlib.util.spec_from_file_location(module_name, file)
        if spec is None or spec.loader is None:
            raise ImportFailure(f"cannot load {file} as Python")
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except BaseException as exc:
            raise ImportFailure(f"cannot import {file}: {type(exc).__name__}: {exc}") from exc
        sys.modules[module_name] = module
    target = getattr(module, name, None)
    if target is None:
        raise ImportFailure(f"{file} defines no '{name}'")
    if not callable(target):
        raise ImportFailure(f"'{name}' in {file} is not callable")
    return target  # type: ignore[no-any-return]
