"""Run the installed ``holodeck-lsp`` console command once per file, cheaply.

    python check_driver.py --cwd DIR [--jobs N] FILE...

prints one JSON line per FILE: ``{"file", "exit_code", "stdout", "stderr"}`` for
``holodeck-lsp check --format json --no-user-config FILE``. The command's entry point is
imported once and each file runs in a forked child of this process, so every run is a
separate process with its own exit code, while the interpreter start-up and imports (about
a second per run) are paid once.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import tempfile
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path
from typing import IO, Any

COMMAND = "holodeck-lsp"
WARM_UP_AGENT = """\
name: warm-up
model: {provider: openai, name: gpt-4o}
instructions: {inline: Hi.}
test_cases:
  - input: hello
"""


def console_entry() -> Callable[[], Any]:
    """The function the ``holodeck-lsp`` console script calls."""
    found = entry_points(group="console_scripts", name=COMMAND)
    for entry in found:
        loaded: Callable[[], Any] = entry.load()
        return loaded
    raise SystemExit(f"{COMMAND} is not installed in {sys.prefix}")


def check_argv(file: str) -> list[str]:
    return [COMMAND, "check", "--format", "json", "--no-user-config", file]


def _exit_code(exc: SystemExit) -> int:
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code
    print(exc.code, file=sys.stderr)
    return 1


def _run_in_child(entry: Callable[[], Any], file: str, out: IO[bytes], err: IO[bytes]) -> None:
    os.dup2(out.fileno(), 1)
    os.dup2(err.fileno(), 2)
    sys.argv = check_argv(file)
    code = 0
    try:
        entry()
    except SystemExit as exc:
        code = _exit_code(exc)
    except BaseException as exc:  # a crash the entry point let through
        print(f"uncaught {type(exc).__name__}: {exc}", file=sys.stderr)
        code = 3
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def warm_up() -> None:
    """Run one check in this process so the children inherit every lazy import.

    Through the command line's own `main`, not the console entry: the entry ends a `check`
    with `os._exit`, which here would end the driver itself."""
    from holodeck_lsp.cli import main as command_line

    with tempfile.TemporaryDirectory() as scratch:
        agent = Path(scratch) / "agent.yaml"
        agent.write_text(WARM_UP_AGENT, encoding="utf-8")
        saved = sys.argv
        sys.argv = check_argv(str(agent))
        sink = io.StringIO()
        with (
            contextlib.redirect_stdout(sink),
            contextlib.redirect_stderr(sink),
            contextlib.suppress(SystemExit),
        ):
            command_line()
        sys.argv = saved


def _drain(captured: IO[bytes]) -> str:
    with captured:
        captured.seek(0)
        return captured.read().decode("utf-8", "replace")


def run_all(entry: Callable[[], Any], files: list[str], jobs: int) -> list[dict[str, Any]]:
    results: dict[int, dict[str, Any]] = {}
    running: dict[int, tuple[int, IO[bytes], IO[bytes]]] = {}
    pending = list(enumerate(files))
    while pending or running:
        while pending and len(running) < jobs:
            index, file = pending.pop(0)
            # Closed below, once the child that writes them has been reaped.
            out: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115
            err: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                _run_in_child(entry, file, out, err)
            running[pid] = (index, out, err)
        pid, status = os.wait()
        index, done_out, done_err = running.pop(pid)
        results[index] = {
            "file": files[index],
            "exit_code": os.waitstatus_to_exitcode(status),
            "stdout": _drain(done_out),
            "stderr": _drain(done_err),
        }
    return [results[i] for i in range(len(files))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="run holodeck-lsp check once per file")
    parser.add_argument("files", nargs="+")
    parser.add_argument("--cwd", required=True, help="working directory of every run")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args(argv)
    os.chdir(args.cwd)
    entry = console_entry()
    warm_up()
    for result in run_all(entry, list(args.files), max(1, args.jobs)):
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
