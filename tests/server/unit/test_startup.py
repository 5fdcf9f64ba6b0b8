"""What start-up loads where: the validation worker validates without lsprotocol, the CLI
or the editor queries (the server process builds the protocol's objects)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from holodeck_lsp.server import jobs, lsp_diagnostics
from holodeck_lsp.server.settings import Settings
from holodeck_lsp.server.startup import start_validator
from tests.server.unit.loaded_modules import loaded_after

TEXT = ("name: x\nmodel:\n  provider: openai\n  name: gpt-4o\n  name: gpt-4o-mini\n"
        "instructions:\n  inline: Be brief.\n")


def _snapshot(path: Path) -> jobs.Snapshot:
    return jobs.Snapshot(
        uri=path.as_uri(), path=path, text=TEXT, version=1, language_id="yaml", others={},
        versions={}, settings=Settings(), roots=(path.parent,), encoding="utf-16",
        related_information=True, known=True, user_config_dir=None)


def test_the_worker_validates_without_loading_the_protocol_side(tmp_path: Path) -> None:
    path = tmp_path / "agent.yaml"
    worker = start_validator()
    try:
        loaded = worker.submit(loaded_after, jobs.run, _snapshot(path)).result(120)
        outcome = worker.submit(jobs.run, _snapshot(path)).result(120)
    finally:
        worker.stop()
    assert loaded == []
    assert outcome.lsp == {}  # built on the server's side, from the placement
    diagnostics = lsp_diagnostics.attach(outcome).lsp[path]
    assert [(d.code, d.range.start.line, d.range.start.character, d.range.end.character,
             [r.location.range.start.line for r in d.related_information or []])
            for d in diagnostics] == [("HL003", 4, 2, 6, [3])]
    assert outcome.placed == {}


def test_serve_starts_the_server_without_loading_the_command_line() -> None:
    # `holodeck-lsp serve` is what editors run: typer and click are a tenth of a second.
    probe = (
        "import sys\n"
        "import holodeck_lsp.server.start as start\n"
        "start.serve = lambda: print(sorted(m for m in sys.modules"
        " if m.startswith(('typer', 'click', 'holodeck_lsp.cli'))))\n"
        "sys.argv = ['holodeck-lsp', 'serve']\n"
        "from holodeck_lsp.__main__ import main\n"
        "main()\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, timeout=120)
    assert out.stdout.strip() == "[]"


def test_the_protocol_side_loads_no_models_before_its_first_request() -> None:
    # The models (pydantic, the reports the kept runs' reader parses) are the validation
    # worker's, or wait for a hover: on the protocol side they delayed the first
    # diagnostics by a tenth of a second.
    probe = (
        "import sys\n"
        "import holodeck_lsp.server.main\n"
        "print(sorted(m for m in sys.modules"
        " if m.startswith(('pydantic', 'holodeck_lsp.models', 'holodeck_lsp.runner'))"
        " or m == 'holodeck_lsp.history.run_history'))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, timeout=120)
    assert out.stdout.strip() == "[]"
