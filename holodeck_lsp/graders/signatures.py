"""The parameters of a function tool's function (`type: function`: its `file` and
`function`), read from the source with `ast`, never imported: the argument names an
expected tool's `args` can assert (the editor offers them; HL308 warns on one the function
cannot take).

What the source does not settle is said so: a function defined more than once, decorated,
bound by an assignment or an import, or in a file past the size limit or that does not
parse is "uncertain" (or unknown), and only a certain signature without `**kwargs` rules a
name out: a false alarm would flag a suite that runs.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass

from holodeck_lsp.graders.static import top_level_statements

# Characters of source read for a signature: a tools module is small; past this, unknown.
MAX_SOURCE_CHARS = 1_000_000


@dataclass(frozen=True)
class Signature:
    names: tuple[str, ...]  # the parameters a call can name, in order (self and cls aside)
    any_name: bool  # it takes **kwargs: every name is fine
    certain: bool  # one plain `def` at the top level: nothing else changes what it takes

    def takes(self, name: str) -> bool | None:
        """Whether a call may pass ``name``; None when the source cannot tell."""
        if self.any_name or name in self.names:
            return True
        return False if self.certain else None


@functools.lru_cache(maxsize=64)
def function_signature(source: str, name: str) -> Signature | None:
    """The parameters of the top-level function ``name`` in ``source``; None when none is
    found or the source cannot be read as Python."""
    if len(source) > MAX_SOURCE_CHARS:
        return None
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    bindings: list[ast.stmt] = []
    for stmt in top_level_statements(tree.body):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if stmt.name == name:
                bindings.append(stmt)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if any(isinstance(n, ast.Name) and n.id == name for t in targets for n in ast.walk(t)):
                bindings.append(stmt)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)) and any(
            (alias.asname or alias.name.split(".")[0]) == name for alias in stmt.names
        ):
            bindings.append(stmt)
    functions = [b for b in bindings if isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not functions:
        return None
    last = functions[-1]
    args = last.args
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    names = [n for n in names if n not in ("self", "cls")]
    certain = len(bindings) == 1 and not last.decorator_list
    return Signature(tuple(names), args.kwarg is not None, certain)
