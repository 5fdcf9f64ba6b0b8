"""Instructions executed (valgrind's callgrind), a measure the machine's other load does not move.

    python -m benchmarks.instruction_counts [--baseline DIR] [--without HACK] [--check-jsonschema]

Wall times on a shared 2-core machine move by a fifth from run to run and more under load;
the instructions a program executes do not. Counted, each program with all its child
processes: `check` on the 20-line file and on the 1,000-case suite of `check_timing.py`;
the two halves of the server's start-up, the protocol side (`import
holodeck_lsp.server.main` after the code cache is installed, as `serve` does) and the
validation worker's preload (`server/preload.py`); the worker's first job on the 100-
and 1,000-case suites of `lsp_first_diagnostics.py` (the preload's count subtracted); and
an edit of the 1,000-case suite after that job (a character typed into a test case or
taken out, applied as the server applies it, then validated as the worker does: the mean
of `EDITS`).
`--baseline DIR` counts another checkout too (say, main before a change), `--without HACK`
(repeatable; a name of `holodeck_lsp/hack_switches.py`) this one with that hack off; with
`--check-jsonschema`, check-jsonschema on the same files (some 30 G instructions on the
large one: minutes under valgrind). Needs valgrind on PATH.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.check_timing import SMALL, check, check_jsonschema
from benchmarks.checkouts import entry_command
from benchmarks.lsp_first_diagnostics import UNKNOWN_KEY
from holodeck_lsp.hack_switches import VARIABLE
from tests.support.suites import suite

ROOT = Path(__file__).resolve().parent.parent
EDITS = 10  # edits counted after the first job, each applied and validated
PROTOCOL_SIDE = ("from holodeck_lsp.server import code_cache\n"
                 "code_cache.install()\n"
                 "import holodeck_lsp.server.main\n")
FIRST_JOB = """import os, sys
os.environ["PYDANTIC_DISABLE_PLUGINS"] = "__all__"
import holodeck_lsp.server.preload
from pathlib import Path
from holodeck_lsp.server import jobs
from holodeck_lsp.server.settings import Settings
if len(sys.argv) > 1:
    path = Path(sys.argv[1])
    def job(text, version, known):
        jobs.run(jobs.Snapshot(
            uri=path.as_uri(), path=path, text=text, version=version, language_id="yaml",
            others={}, versions={path: version}, settings=Settings(), roots=(path.parent,),
            encoding="utf-16", related_information=True, known=known, user_config_dir=None))
    job(path.read_text(), 1, False)
if len(sys.argv) > 2:  # then edits: a character typed at the end of an input, taken out
    from lsprotocol import types
    from holodeck_lsp.server.open_documents import Documents
    docs = Documents()
    doc = docs.open(types.TextDocumentItem(path.as_uri(), "yaml", 1, path.read_text()))
    lines = doc.text.split("\\n")
    line = next(i for i in range(len(lines) // 2, len(lines)) if "input:" in lines[i])
    col = len(lines[line])
    for n in range(int(sys.argv[2])):
        at, end = types.Position(line, col), types.Position(line, col + n % 2)
        change = types.TextDocumentContentChangePartial(types.Range(at, end), "" if n % 2 else "x")
        doc = docs.change(doc.uri, doc.version + 1, [change])
        job(doc.text, doc.version, True)
"""


def instructions(argv: list[str], env: dict[str, str], folder: Path) -> float:
    """Billions of instructions ``argv`` and its children executed."""
    out = folder / "callgrind"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--trace-children=yes",
         f"--callgrind-out-file={out}/%p", *argv],
        env={**os.environ, **env}, cwd=folder, capture_output=True, text=True, check=False)
    counts = [int(n) for n in re.findall(r"Collected : (\d+)", done.stderr)]
    if not counts:
        raise SystemExit(f"valgrind counted nothing: {done.stderr[-2000:]}")
    return sum(counts) / 1e9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", type=Path, help="a checkout to count beside this one")
    parser.add_argument("--without", action="append", default=[], metavar="HACK",
                        help="count this checkout with the hack off as well")
    parser.add_argument("--check-jsonschema", action="store_true")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files = {"20-line file": folder / "small" / "agent.yaml",
                 "1,000 cases": folder / "large" / "agent.yaml"}
        for path, text in zip(files.values(), (SMALL, suite(1000)), strict=True):
            path.parent.mkdir()
            path.write_text(text)
        suites = {f"{n:,} cases": folder / f"suite{n}.agent.yaml" for n in (100, 1000)}
        for n, path in zip((100, 1000), suites.values(), strict=True):
            path.write_text(suite(n) + UNKNOWN_KEY)
        (folder / "protocol_side.py").write_text(PROTOCOL_SIDE)
        (folder / "first_job.py").write_text(FIRST_JOB)
        checkouts: dict[str, tuple[Path, dict[str, str]]] = {"holodeck-lsp": (ROOT, {})}
        if args.baseline is not None:
            checkouts["baseline"] = (args.baseline, {})
        for hack in args.without:
            checkouts[f"holodeck-lsp without {hack}"] = (ROOT, {VARIABLE: hack})
        for name, (checkout, switches) in checkouts.items():
            program: list[str] | None = None  # this environment's own `holodeck-lsp`
            env: dict[str, str] = dict(switches)
            if checkout != ROOT:
                program, env = entry_command(checkout, folder)
            python = [sys.executable]
            subprocess.run([*python, "protocol_side.py"], env={**os.environ, **env},
                           cwd=folder, check=True)  # the code cache written, as after a start
            print(f"{name}, billions of instructions:")
            for label, path in files.items():
                count = instructions(check(path, program), env, folder)
                print(f"    check, {label:<28} {count:6.3f}")
            count = instructions([*python, "protocol_side.py"], env, folder)
            print(f"    server, protocol side              {count:6.3f}")
            preload = instructions([*python, "first_job.py"], env, folder)
            print(f"    worker, preload                    {preload:6.3f}")
            for label, path in suites.items():
                count = instructions([*python, "first_job.py", str(path)], env, folder)
                print(f"    worker, first job, {label:<15} {count - preload:6.3f}")
            edits = [instructions([*python, "first_job.py", str(path), str(n)], env, folder)
                     for n in (0, EDITS)]
            print(f"    an edit, {label}, millions    {(edits[1] - edits[0]) / EDITS * 1e3:6.1f}")
        if args.check_jsonschema:
            print("check-jsonschema, billions of instructions:")
            for label, path in files.items():
                argv = check_jsonschema(path)
                if argv is None:
                    raise SystemExit("check-jsonschema is not installed")
                print(f"    check, {label:<28} {instructions(argv, {}, folder):6.3f}")


if __name__ == "__main__":
    main()
