"""`.env` files as `holodeck test` loads them (`holodeck/cli/main.py:_load_dotenv_files`):
`.env` of the working directory, then `~/.holodeck/.env`, each read by python-dotenv as
HoloDeck reads it (quotes, `export`, `${VAR}` and `${VAR:-default}` expanded), and a
variable already set is never replaced: the environment wins, then the working
directory's file, then the user's. python-dotenv's own switch, `PYTHON_DOTENV_DISABLED`,
turns both off here as it does for HoloDeck; `run --no-dotenv` does too, and
`--no-user-config` leaves out the user's file.

Each file is read as a named file (`named_files.py`): a regular file of at most
`DOTENV_LIMIT` bytes, links resolved. A missing file or a folder is skipped silently, as
HoloDeck skips them; anything else it cannot read (a FIFO, on which HoloDeck would hang, a
device, a binary or oversized file) and every line python-dotenv cannot parse is skipped
with a warning.
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from holodeck_lsp.named_files import NotReadable, read_text

DOTENV_LIMIT = 1_000_000  # bytes; a `.env` holds settings, not data
# python-dotenv's switch (`load_dotenv` does nothing when it is truthy).
DISABLED_VARIABLE = "PYTHON_DOTENV_DISABLED"
_TRUTHY = frozenset({"1", "true", "t", "yes", "y"})


@dataclass
class DotenvLoad:
    """What the `.env` files add to the environment, and what was said about them."""

    values: dict[str, str] = field(default_factory=dict)  # only variables not already set
    read: list[str] = field(default_factory=list)  # the files read, as shown
    warnings: list[str] = field(default_factory=list)

    def over(self, env: Mapping[str, str]) -> dict[str, str]:
        """``env`` with the files' variables beneath it."""
        return {**self.values, **env}

    def summary(self) -> str | None:
        """`.env: FX_MODEL, OPENAI_API_KEY`: the names each file set (never the values)."""
        if not self.read:
            return None
        names = ", ".join(self.values) or "no variable that was not set already"
        return f"loaded from {' and '.join(self.read)}: {names}"


def dotenv_paths(cwd: Path, home: Path, user: bool = True) -> list[tuple[Path, str]]:
    """The files HoloDeck loads, first wins, each with the name it is shown as."""
    paths = [(cwd / ".env", ".env")]
    if user:
        paths.append((home / ".holodeck" / ".env", "~/.holodeck/.env"))
    return paths


def disabled(env: Mapping[str, str]) -> bool:
    return env.get(DISABLED_VARIABLE, "").casefold() in _TRUTHY


def load_dotenv_files(paths: list[tuple[Path, str]], env: Mapping[str, str]) -> DotenvLoad:
    """The variables ``paths`` set that ``env`` does not, as `load_dotenv(override=False)`
    sets them, one file after the other."""
    load = DotenvLoad()
    if disabled(env):
        return load
    for path, shown in paths:
        try:
            text = read_text(path, DOTENV_LIMIT)
        except NotReadable as exc:
            if exc.problem not in ("missing", "folder"):
                load.warnings.append(f"{shown} not read: it {exc.reason}")
            continue
        # python-dotenv's package loads logging and more: only for a file there is.
        from dotenv.parser import parse_stream
        from dotenv.variables import parse_variables

        load.read.append(shown)
        # The environment as it stands once the earlier files are loaded.
        standing = load.over(env)
        own: dict[str, str | None] = {}
        for binding in parse_stream(io.StringIO(text)):
            if binding.error:
                load.warnings.append(
                    f"{shown}:{binding.original.line}: not KEY=VALUE: the line is skipped, "
                    "as `holodeck test` skips it"
                )
                continue
            if binding.key is None:
                continue  # a comment or a blank line
            value = binding.value
            if value is not None:
                # load_dotenv(override=False): the environment beats the file's own lines.
                known: dict[str, str | None] = {**own, **standing}
                value = "".join(atom.resolve(known) for atom in parse_variables(value))
            own[binding.key] = value
            if value is not None and binding.key not in standing:
                load.values[binding.key] = value
    return load


@contextlib.contextmanager
def process_environment(values: Mapping[str, str]) -> Iterator[None]:
    """The process's environment with ``values`` set where unset (graders, function tools
    and agent factories read `os.environ`, as they do under `holodeck test`); as it was
    again afterwards."""
    added = [name for name in values if name not in os.environ]
    for name in added:
        os.environ[name] = values[name]
    try:
        yield
    finally:
        for name in added:
            os.environ.pop(name, None)


def run_dotenv(enabled: bool, user: bool, env: Mapping[str, str]) -> DotenvLoad:
    """What `run` loads: the working directory's `.env`, then the user's (unless
    ``user`` is off), nothing at all with `--no-dotenv` (``enabled`` off)."""
    if not enabled:
        return DotenvLoad()
    return load_dotenv_files(dotenv_paths(Path.cwd(), Path.home(), user), env)
