"""While user code is imported with the user's folders first on `sys.path`, a name of the
standard library still means the standard library.

HoloDeck puts the agent's folder first on `sys.path` so that its graders and tools import
their neighbours. A `json/` or `multiprocessing/` folder there would then stand in for the
standard module the next time anything imports it, and run. The guard, placed before the
path finder, looks a standard name up on the environment's part of `sys.path` only (the
entries that are not user folders), and refuses it when it is not there. A name the suite
itself names as a grader module (`grader: test.checks:fn`) is the user's to import.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec, PathFinder
from types import ModuleType


class StandardLibraryFirst(MetaPathFinder):
    def __init__(self) -> None:
        self.user_folders: set[str] = set()
        self.named_by_user: set[str] = set()

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if path is not None or fullname not in sys.stdlib_module_names:
            return None  # a submodule (found through its package) or not a standard name
        if fullname in self.named_by_user:
            return None
        environment = [entry for entry in sys.path if entry not in self.user_folders]
        spec = PathFinder.find_spec(fullname, environment)
        if spec is None:
            raise ModuleNotFoundError(
                f"no module named {fullname!r} in the standard library; a module of that "
                "name in the workspace is not used in its place",
                name=fullname,
            )
        return spec


def guard_standard_library(
    user_folders: Iterable[str], named_by_user: Iterable[str] = ()
) -> StandardLibraryFirst:
    """Install the guard (once, just before the path finder) and tell it which `sys.path`
    entries are the user's and which top-level names the suite names itself."""
    guard = next((f for f in sys.meta_path if isinstance(f, StandardLibraryFirst)), None)
    if guard is None:
        guard = StandardLibraryFirst()
        at = next((i for i, f in enumerate(sys.meta_path) if f is PathFinder), len(sys.meta_path))
        sys.meta_path.insert(at, guard)
    guard.user_folders.update(user_folders)
    guard.named_by_user.update(named_by_user)
    return guard
