"""The command examples of README.md and docs/, run against the bundled examples.

A fenced block whose line before is a marker is an example:

    <!-- docs-example: exit=1 -->
    ```text
    $ holodeck-lsp check examples/quickstart/agent.yaml
    examples/quickstart/agent.yaml:18:23: error HL103 ...
    ```

Each `$ ` line is a `holodeck-lsp` command (split as a shell would, never run by one); the
lines up to the next command are what it prints, stdout and stderr together. The marker's
settings: `exit=N` (the exit code the example shows, default 0), `cwd=FOLDER` (where the
command runs, relative to the repository root, default the root), `unordered` (the lines
may come in any order: test cases that run concurrently print as they finish). A marker
`<!-- docs-example: skip -->` says a block that looks like an example is not one.

Every command runs in a scratch folder holding a copy of `examples/`, never in the
repository, with a scratch HOME. What is normalised before comparing, and only that:
durations, the scratch folder's path, and the time in the name of a run `run` keeps.

    python -m tests.docs.examples [--program PATH] [FILE.md ...]

runs every example of the named files (default: README.md and docs/*.md) with PATH as
`holodeck-lsp` (default: the one beside this Python), prints a diff for each that no
longer matches, and exits 1 if any does. `.ci/release-smoke` runs it with a built wheel.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = "holodeck-lsp"
_MARKER = re.compile(r"^<!--\s*docs-example(?::\s*(?P<settings>.*?))?\s*-->\s*$")
_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,})(?P<info>.*)$")
# A command's measured time: "7 ms", "in 0.02 s".
_DURATION = re.compile(r"\b\d+(?:\.\d+)? (?:ms|s)\b")
# The name of a kept run: its report's timestamp (`run kept: results/x/2026-...json`).
_KEPT_RUN = re.compile(r"\brun kept: (.*/)?\d{4}-\d\d-\d\dT[0-9.+-]+\.json$")
TIMEOUT = 120  # seconds per command: a hang fails the example, never the whole suite


@dataclass
class Command:
    argv: list[str]
    expected: list[str]


@dataclass
class Example:
    file: Path
    line: int  # 1-based line of the block's opening fence
    commands: list[Command]
    exit_code: int = 0
    cwd: str = "."
    unordered: bool = False
    settings: dict[str, str] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"{self.file.relative_to(ROOT).as_posix()}:{self.line}"


class MarkerError(ValueError):
    pass


def doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _settings(text: str | None) -> dict[str, str]:
    out = {}
    for word in (text or "").split():
        key, _, value = word.partition("=")
        out[key] = value
    return out


def _block(lines: list[str], start: int) -> tuple[list[str], int]:
    """The lines inside the fence opening at ``start``, and the line after the close."""
    opening = _FENCE.match(lines[start])
    assert opening is not None
    indent, fence = opening["indent"], opening["fence"]
    body = []
    for i in range(start + 1, len(lines)):
        if lines[i].strip() == fence:
            return body, i + 1
        body.append(lines[i].removeprefix(indent))
    raise MarkerError(f"line {start + 1}: the block is never closed")


def _commands(body: list[str], where: str) -> list[Command]:
    commands: list[Command] = []
    for line in body:
        if line.startswith("$ "):
            argv = shlex.split(line[2:])
            if not argv or argv[0] != PROGRAM:
                raise MarkerError(f"{where}: an example runs {PROGRAM} only, not {line[2:]!r}")
            commands.append(Command(argv, []))
        elif not commands:
            raise MarkerError(f"{where}: an example starts with a '$ {PROGRAM}' line")
        else:
            commands[-1].expected.append(line)
    return commands


def examples(file: Path) -> list[Example]:
    """The marked examples of one Markdown file."""
    lines = file.read_text(encoding="utf-8").splitlines()
    found = []
    for i, line in enumerate(lines):
        marker = _MARKER.match(line.strip())
        if marker is None:
            continue
        settings = _settings(marker["settings"])
        where = f"{file.relative_to(ROOT).as_posix()}:{i + 1}"
        if i + 1 >= len(lines) or not _FENCE.match(lines[i + 1]):
            raise MarkerError(f"{where}: a docs-example marker stands right above a block")
        if "skip" in settings:
            continue
        unknown = set(settings) - {"exit", "cwd", "unordered"}
        if unknown:
            raise MarkerError(f"{where}: unknown setting(s) {', '.join(sorted(unknown))}")
        body, _ = _block(lines, i + 1)
        found.append(
            Example(
                file,
                i + 2,
                _commands(body, where),
                exit_code=int(settings.get("exit", "0")),
                cwd=settings.get("cwd", "."),
                unordered="unordered" in settings,
                settings=settings,
            )
        )
    return found


def unmarked_command_blocks(file: Path) -> list[str]:
    """Blocks that show a `$ holodeck-lsp` command but carry no marker (say `skip` then)."""
    lines = file.read_text(encoding="utf-8").splitlines()
    out = []
    i = 0
    while i < len(lines):
        if not _FENCE.match(lines[i]):
            i += 1
            continue
        body, after = _block(lines, i)
        marked = i > 0 and _MARKER.match(lines[i - 1].strip()) is not None
        if not marked and any(line.startswith(f"$ {PROGRAM}") for line in body):
            out.append(f"{file.relative_to(ROOT).as_posix()}:{i + 1}")
        i = after
    return out


def _environment(home: Path) -> dict[str, str]:
    """A user's plain shell: no API keys, no colour, a HOME of its own."""
    keep = ("PATH", "LANG", "LC_ALL", "SYSTEMROOT", "TMPDIR")
    env = {k: v for k, v in os.environ.items() if k in keep}
    env.update(HOME=str(home), NO_COLOR="1", PYTHONDONTWRITEBYTECODE="1")
    return env


def normalise(lines: list[str], scratch: Path) -> list[str]:
    out = []
    for line in lines:
        line = line.replace(str(scratch) + os.sep, "").replace(str(scratch), ".")
        line = _KEPT_RUN.sub(lambda m: f"run kept: {m.group(1) or ''}<time>.json", line)
        out.append(_DURATION.sub("<duration>", line).rstrip())
    return out


def run(example: Example, program: str) -> list[str]:
    """What goes wrong when the example runs: a diff per command, or nothing."""
    problems = []
    with tempfile.TemporaryDirectory(prefix="docs-example-") as tmp:
        scratch = Path(tmp).resolve()
        shutil.copytree(ROOT / "examples", scratch / "examples")
        (scratch / "home").mkdir()
        cwd = scratch / example.cwd
        for command in example.commands:
            done = subprocess.run(
                [program, *command.argv[1:]],
                cwd=cwd,
                env=_environment(scratch / "home"),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                timeout=TIMEOUT,
            )
            got = normalise(done.stdout.splitlines(), scratch)
            want = normalise(command.expected, scratch)
            if example.unordered:
                got, want = sorted(got), sorted(want)
            shown = shlex.join(command.argv)
            if got != want:
                diff = difflib.unified_diff(want, got, "documented", "printed", lineterm="")
                problems.append(f"$ {shown}\n" + "\n".join(diff))
            last = command is example.commands[-1]
            expected_code = example.exit_code if last else 0
            if done.returncode != expected_code:
                problems.append(
                    f"$ {shown}\nexited {done.returncode}, the example says {expected_code}"
                )
    return problems


def default_program() -> str:
    beside = Path(sys.executable).parent / PROGRAM
    return str(beside) if beside.exists() else PROGRAM


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--program", default=default_program(), help="the holodeck-lsp to run")
    parser.add_argument("files", nargs="*", type=Path, help="Markdown files (default: all)")
    args = parser.parse_args(argv)
    files = [f.resolve() for f in args.files] or doc_files()
    failed = 0
    for file in files:
        for example in examples(file):
            problems = run(example, args.program)
            print(f"{'FAIL' if problems else 'ok'}  {example.name}")
            for problem in problems:
                print(problem)
            failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
