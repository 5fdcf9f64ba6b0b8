"""Language server: time from spawning the server to the first diagnostics of a file.

    python -m benchmarks.lsp_first_diagnostics [--runs 5] [--sizes 100 1000] [--baseline DIR]
        [--without HACK]

An editor opens a workspace with a 100-case (and a 1,000-case) 4-turn suite on screen
(`tests/support/suites.py`, with one unknown key in the last turn, so that the diagnostics awaited
are those of a validation of the whole file). A node client with VS Code's capabilities
(pytest-lsp's record of them; `first_diagnostics_client.mjs`) spawns the server, sends
`initialize`, `initialized`, the settings and `didOpen` at once, and times spawn ->
`initialize` result and spawn -> the first published diagnostics that include that key's.
The same client drives yaml-language-server (`tests/schema/yaml-ls/setup.sh` installs
it) with HoloDeck's published schema (`tests/data/reference/`) mapped to the file, and
the runs alternate (ours, theirs, ours, ...) so the machine's other load hits both.
Prints the median and the fastest of each, their ratio, and where our server's
milliseconds went (its `HOLODECK_LSP_TIMING` log: imports, handshake, worker start,
parse, validate, publish). Target: at most 0.5x yaml-language-server at both sizes.
`--baseline DIR` also times the server of another checkout (say, main before a change),
in the same alternation, and `--without HACK` (repeatable; a name of
`holodeck_lsp/hack_switches.py`) this one's with that hack off. Our modules are compiled
to bytecode first, as `pip install` leaves them (an editable install under
PYTHONDONTWRITEBYTECODE would otherwise compile them from source on every start), as
`check_timing.py` does.
"""

from __future__ import annotations

import argparse
import compileall
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol.converters import get_converter
from pygls.uris import from_fs_path
from pytest_lsp import client_capabilities

from benchmarks.checkouts import entry_command
from holodeck_lsp.hack_switches import VARIABLE
from tests.support.suites import suite

ROOT = Path(__file__).resolve().parent.parent
CLIENT = Path(__file__).with_name("first_diagnostics_client.mjs")
YAML_LS = ROOT / "tests/schema/yaml-ls/node_modules/yaml-language-server/bin/yaml-language-server"
HOLODECK_SCHEMA = ROOT / "tests/data/reference/holodeck-agent.schema.json"
UNKNOWN_KEY = "        flavour: sweet\n"  # in the last turn: both servers flag it
# The settings VS Code's YAML extension sends (no schema catalogue: no network).
YAML_SETTINGS = {"validate": True, "hover": True, "completion": True,
                 "schemaStore": {"enable": False}}


@dataclass
class Run:
    initialize_ms: float
    diagnostics_ms: float
    steps: dict[str, float] = field(default_factory=dict)  # event -> ms after spawn


def our_command() -> list[str]:
    """What the VS Code extension runs: the environment's `holodeck-lsp serve`."""
    exe = Path(sys.executable).parent / "holodeck-lsp"
    return [str(exe) if exe.exists() else shutil.which("holodeck-lsp") or "holodeck-lsp",
            "serve"]


def drive(config: dict[str, object], folder: Path) -> tuple[dict[str, float], str]:
    """One spawn-to-diagnostics run of the node client; its result and the server's stderr."""
    config_file, stderr = folder / "client.json", folder / "server.stderr"
    config_file.write_text(json.dumps({**config, "stderr": str(stderr)}))
    done = subprocess.run(["node", str(CLIENT), str(config_file)], capture_output=True,
                          text=True, check=False, timeout=300)
    if done.returncode != 0:
        raise SystemExit(f"the client failed: {done.stderr}{stderr.read_text()[-2000:]}")
    return json.loads(done.stdout.splitlines()[-1]), stderr.read_text(errors="replace")


def timings(stderr: str, spawned_at_ms: float) -> dict[str, float]:
    """The server's `holodeck-lsp timing: EVENT EPOCH` lines, as ms after the spawn."""
    steps: dict[str, float] = {}
    for line in stderr.splitlines():
        _, marker, rest = line.partition("holodeck-lsp timing: ")
        if marker:
            event, _, epoch = rest.rpartition(" ")
            steps.setdefault(event, float(epoch) * 1000 - spawned_at_ms)
    return steps


def run_once(config: dict[str, object], folder: Path) -> Run:
    result, stderr = drive(config, folder)
    return Run(result["initializeMs"], result["diagnosticsMs"],
               timings(stderr, result["spawnedAt"]))


def configs(path: Path, text: str, line: int, baseline: Path | None = None,
            without: tuple[str, ...] = ()) -> dict[str, dict[str, object]]:
    capabilities = get_converter().unstructure(client_capabilities("visual-studio-code"))
    common = {"cwd": str(path.parent), "capabilities": capabilities, "line": line,
              "rootUri": from_fs_path(str(path.parent)), "uri": from_fs_path(str(path)),
              "languageId": "yaml", "text": text}
    schemas = {from_fs_path(str(HOLODECK_SCHEMA)): "*.agent.yaml"}
    servers = {
        "holodeck-lsp": {**common, "command": our_command(), "settings": {"holodeck": {}},
                         "env": {"HOLODECK_LSP_TIMING": "1"}},
        "yaml-language-server": {**common, "command": ["node", str(YAML_LS), "--stdio"],
                                 "settings": {"yaml": {**YAML_SETTINGS, "schemas": schemas}},
                                 "env": {}},
    }
    if baseline is not None:
        command, env = entry_command(baseline, path.parent)
        servers["baseline"] = {**servers["holodeck-lsp"], "command": [*command, "serve"],
                               "env": {"HOLODECK_LSP_TIMING": "1", **env}}
    for hack in without:
        servers[f"without {hack}"] = {**servers["holodeck-lsp"],
                                      "env": {"HOLODECK_LSP_TIMING": "1", VARIABLE: hack}}
    return servers


def describe(name: str, runs: list[Run]) -> str:
    first = [r.diagnostics_ms for r in runs]
    init = [r.initialize_ms for r in runs]
    return (f"    {name:<21} first diagnostics median {statistics.median(first):6.0f} ms "
            f"(fastest {min(first):5.0f}); initialize median {statistics.median(init):5.0f} ms\n"
            f"    {'':<21} each run, in order: {', '.join(f'{ms:.0f}' for ms in first)} ms")


def breakdown(runs: list[Run]) -> list[str]:
    """The median time after spawn of each event our server logged, in the order they came."""
    events: dict[str, list[float]] = {}
    for run in runs:
        for event, ms in run.steps.items():
            events.setdefault(event, []).append(ms)
    ordered = sorted(events.items(), key=lambda item: statistics.median(item[1]))
    return [f"        {statistics.median(v):6.0f} ms  {event}" for event, v in ordered]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="*", default=[100, 1000])
    parser.add_argument("--only-ours", action="store_true", help="skip yaml-language-server")
    parser.add_argument("--baseline", type=Path, help="a checkout to time beside this one")
    parser.add_argument("--without", action="append", default=[], metavar="HACK",
                        help="time this checkout's server with the hack off as well")
    args = parser.parse_args()
    compileall.compile_dir(ROOT / "holodeck_lsp", quiet=1)
    if args.baseline is not None:
        compileall.compile_dir(args.baseline / "holodeck_lsp", quiet=1)
    if not args.only_ours and not YAML_LS.is_file():
        raise SystemExit("yaml-language-server is not installed: tests/schema/yaml-ls/setup.sh")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for size in args.sizes:
            path = folder / f"suite{size}.agent.yaml"
            text = suite(size) + UNKNOWN_KEY
            path.write_text(text)
            servers = configs(path, text, text.count("\n") - 1, args.baseline,
                              tuple(args.without))
            if args.only_ours:
                servers.pop("yaml-language-server")
            runs: dict[str, list[Run]] = {name: [] for name in servers}
            for _ in range(args.runs):
                for name, config in servers.items():  # alternated: ours, theirs, ours, ...
                    runs[name].append(run_once(config, folder))
            print(f"{size:>5} cases ({len(text) // 1024} KiB), spawn -> first diagnostics, "
                  f"{args.runs} runs each, alternated:")
            for name, each in runs.items():
                print(describe(name, each))
            if not args.only_ours:
                medians = {n: statistics.median(r.diagnostics_ms for r in each)
                           for n, each in runs.items()}
                for name in medians:
                    if name != "yaml-language-server":
                        print(f"    ratio of the medians, {name} / yaml-language-server: "
                              f"{medians[name] / medians['yaml-language-server']:.2f} "
                              "(target <= 0.50)")
            lines = breakdown(runs["holodeck-lsp"])
            if lines:
                print("    holodeck-lsp, median ms after spawn of each step it logged:")
                print("\n".join(lines))


if __name__ == "__main__":
    main()
