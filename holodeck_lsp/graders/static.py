"""Resolve `module.path:callable` without running any of the user's code.

The module file is located on the search path the way the import system would find
it (packages, namespace packages, extension modules), then read with `ast` for a
top-level binding of the name. Anything we cannot decide statically is "unknown",
never an error: a false alarm here would block a valid suite.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from holodeck_lsp.named_files import MAX_NAMED_BYTES, NotReadable, read_text

Status = Literal["ok", "unknown", "module-missing", "attr-missing", "not-callable", "syntax-error"]
_EXTENSION_SUFFIXES = (".so", ".pyd", ".pyc")
_DYNAMIC_MARKERS = ("__getattr__", "globals()", "setattr(", "import *", "exec(", "vars()")
_NOT_CALLABLE = (
    ast.Constant,
    ast.List,
    ast.Dict,
    ast.Tuple,
    ast.Set,
    ast.JoinedStr,
    ast.ListComp,
    ast.DictComp,
    ast.SetComp,
    ast.BinOp,
    ast.Compare,
)


@dataclass(frozen=True)
class GraderLocation:
    file: Path
    line: int  # 0-based
    col: int


@dataclass(frozen=True)
class Resolution:
    status: Status
    message: str = ""
    module_file: Path | None = None
    target: GraderLocation | None = None


def _exists(path: Path, kind: str = "any") -> bool:
    """A file-system test that answers False for names no file system can hold."""
    try:
        return (
            path.is_file() if kind == "file" else path.is_dir() if kind == "dir" else path.exists()
        )
    except OSError:  # ENAMETOOLONG and the like
        return False


def find_module(module: str, search_path: list[Path]) -> Path | Literal["opaque"] | None:
    """The source file of ``module``; "opaque" when it exists but has no readable source."""
    if module.split(".")[0] in sys.builtin_module_names:
        return "opaque"
    parts = module.split(".")
    for root in search_path:
        base = root.joinpath(*parts)
        if not all(_exists(root.joinpath(*parts[:i]), "dir") for i in range(1, len(parts))):
            continue
        if _exists(base.with_suffix(".py"), "file"):
            return base.with_suffix(".py")
        if _exists(base / "__init__.py", "file"):
            return base / "__init__.py"
        parent = base.parent
        if _exists(parent, "dir") and any(
            p.name.startswith(parts[-1] + ".") and p.suffix in _EXTENSION_SUFFIXES
            for p in parent.iterdir()
        ):
            return "opaque"
        if _exists(base, "dir"):  # a namespace package: importable, holds no attributes of its own
            return "opaque"
    return None


_cache: dict[tuple[Path, float], tuple[ast.Module | SyntaxError, str]] = {}


def _parse(file: Path) -> tuple[ast.Module | SyntaxError, str]:
    """The module's syntax tree (or why it has none) and its source."""
    try:
        key = (file, file.stat().st_mtime)
    except OSError as exc:
        return SyntaxError(str(exc)), ""
    if key not in _cache:
        source = ""
        try:
            source = read_text(file, MAX_NAMED_BYTES)
            _cache[key] = ast.parse(source, str(file)), source
        except SyntaxError as exc:
            _cache[key] = exc, source
        except NotReadable as exc:
            _cache[key] = SyntaxError(f"the source {exc.reason}"), ""
        except ValueError as exc:
            _cache[key] = SyntaxError(str(exc)), source
    return _cache[key]


def top_level_statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """Statements run at import: the body plus the branches of top-level if/try/with."""
    out: list[ast.stmt] = []
    for stmt in body:
        out.append(stmt)
        if isinstance(stmt, (ast.If, ast.While, ast.For)):
            out.extend(top_level_statements(stmt.body + stmt.orelse))
        elif isinstance(stmt, ast.Try):
            handlers = [s for h in stmt.handlers for s in h.body]
            out.extend(top_level_statements(stmt.body + handlers + stmt.orelse + stmt.finalbody))
        elif isinstance(stmt, ast.With):
            out.extend(top_level_statements(stmt.body))
    return out


def _binding(tree: ast.Module, name: str) -> tuple[ast.AST, bool | None] | None:
    """(node, callable?) of the last top-level binding of ``name``; None if unbound."""
    found: tuple[ast.AST, bool | None] | None = None
    for stmt in top_level_statements(tree.body):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if stmt.name == name:
                found = (stmt, True)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
            if name in names and stmt.value is not None:
                plain = all(isinstance(t, ast.Name) for t in targets)  # `a, b = ...`: unknown
                is_call = False if plain and isinstance(stmt.value, _NOT_CALLABLE) else None
                found = (stmt, is_call)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for alias in stmt.names:
                bound = alias.asname or alias.name.split(".")[0]
                if bound == name:
                    found = (stmt, None)
    return found


def resolve_grader(spec: str, search_path: list[Path]) -> Resolution:
    """Resolve a well-formed ``module:callable`` grader reference statically."""
    module, _, name = spec.partition(":")
    located = find_module(module, search_path)
    if located is None:
        where = f"next to the agent ({search_path[0]}) or on the Python path" if search_path else ""
        return Resolution("module-missing", f"grader module {module!r} not found {where}")
    if located == "opaque":
        return Resolution("unknown")
    tree, source = _parse(located)
    if isinstance(tree, SyntaxError):
        where = f" at line {tree.lineno}" if tree.lineno else ""
        return Resolution(
            "syntax-error",
            f"grader module {module!r} cannot be imported: {tree.msg}{where} of {located.name}",
            located,
        )
    binding = _binding(tree, name)
    if binding is None:
        sibling = located.parent / name
        if any(m in source for m in _DYNAMIC_MARKERS) or _exists(sibling.with_suffix(".py")):
            return Resolution("unknown", module_file=located)
        return Resolution(
            "attr-missing", f"module {module!r} ({located.name}) defines no {name!r}", located
        )
    node, is_callable = binding
    target = GraderLocation(located, getattr(node, "lineno", 1) - 1, getattr(node, "col_offset", 0))
    if is_callable is False:
        return Resolution(
            "not-callable", f"{spec!r} is a value, not a function or class", located, target
        )
    return Resolution("ok", module_file=located, target=target)


def default_search_path(agent_dir: Path, extra: list[Path] | None = None) -> list[Path]:
    """Where `holodeck test` would look: the agent's folder first, then the environment."""
    paths = [agent_dir, *(extra or [])]
    paths += [Path(p) for p in sys.path if p and Path(p).is_dir()]
    seen: set[Path] = set()
    out = []
    for p in paths:
        r = p.resolve()
        if r not in seen:
            seen.add(r)
            out.append(r)
    return out
