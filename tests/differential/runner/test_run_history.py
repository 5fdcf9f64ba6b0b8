"""Run histories both ways: HoloDeck 0.7.1's own `EvalRun.model_validate_json` and its
dashboard's loader (`holodeck/dashboard/data_loader.py: load_all`) accept every file `run`
keeps (a plain run, a `--repeat` run, a merged sharded run), and `holodeck-lsp history`
reads the folder `holodeck test` wrote, with the verdicts of HoloDeck's own report.

HoloDeck's `Agent` imports a code grader when it validates one (`CodeMetric._resolve_grader`),
so its side runs in the suite's folder, as `holodeck test view` must for its own files."""

from __future__ import annotations

import io
import json
import subprocess
import textwrap
from pathlib import Path

import pytest

from holodeck_lsp.history.run_history import read_history
from holodeck_lsp.runner.command import (
    CollectOptions,
    ReportOptions,
    RunOptions,
    merge_command,
    run_command,
)
from holodeck_lsp.runner.report.run_keeping.keep_run import KeepOptions
from tests.differential.runner.harness import holodeck_env
from tests.differential.runner.suites import generated_suite
from tests.runner.fake_model import FakeModelServer
from tests.runner.helpers import invoke

pytestmark = pytest.mark.slow

_LOAD = """
import json, sys
from pathlib import Path
sys.path.insert(0, ".")
from holodeck.dashboard.data_loader import load_all, to_summary_dataframe
from holodeck.models.eval_run import EvalRun
folder = Path(sys.argv[1])
problems = {}
for path in sorted(folder.glob("*.json")):
    try:
        EvalRun.model_validate_json(path.read_text(encoding="utf-8"))
    except Exception as exc:
        problems[path.name] = f"{type(exc).__name__}: {exc}"
runs = load_all(folder)
table = to_summary_dataframe(runs)
print(json.dumps({"problems": problems, "loaded": len(runs),
                  "passed": [int(p) for p in table["passed"]]}))
"""


def _ours(agent: Path, url: str, history: Path, *args: str, shard: str | None = None,
          report: Path | None = None) -> None:  # fmt: skip
    env = {"OPENAI_BASE_URL": url, "OPENAI_API_KEY": "sk-differential", "PATH": ""}
    options = RunOptions(
        agent,
        collect=CollectOptions(user_config=False, shard=shard, repeat=2 if args else 1),
        report=ReportOptions(
            outputs=[report] if report else [],
            quiet=True,
            keeping=KeepOptions(history, command_line=("run", str(agent), *args)),
        ),
    )
    run_command(options, io.StringIO(), io.StringIO(), env)


def _holodeck_reads(holodeck_cli: Path, folder: Path, cwd: Path) -> dict[str, object]:
    python = holodeck_cli.with_name("python")
    done = subprocess.run(
        [str(python), "-c", textwrap.dedent(_LOAD), str(folder)],
        cwd=cwd, capture_output=True, text=True, timeout=600, check=True,
    )  # fmt: skip
    return json.loads(done.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def test_holodeck_reads_our_history_and_we_read_holodeck_s(
    holodeck_cli: Path, tmp_path: Path
) -> None:
    suite = generated_suite(3, 8)
    agent = suite.write(tmp_path / "suite")
    ours = tmp_path / "ours"
    (tmp_path / "home").mkdir()
    with FakeModelServer(suite.service_script()) as server:
        theirs = subprocess.Popen(
            [str(holodeck_cli), "test", "run", str(agent), "--output",
             str(tmp_path / "theirs.json"), "--quiet"],
            cwd=agent.parent, env=holodeck_env(server.url, tmp_path / "home"),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        _ours(agent, server.url, ours)
        _ours(agent, server.url, ours, "--repeat", "2")
        shards = [tmp_path / f"shard{i}.json" for i in (1, 2)]
        for index, shard in enumerate(shards, 1):
            _ours(agent, server.url, ours, shard=f"{index}/2", report=shard)
        output, _ = theirs.communicate(timeout=600)
    code = merge_command(
        shards, [], io.StringIO(), io.StringIO(), keeping=KeepOptions(ours, command_line=("merge",))
    )
    assert code in (0, 1)
    kept = sorted(ours.iterdir())
    assert len(kept) == 3  # the run, the repeated run, the merged shards

    # HoloDeck's model and its dashboard's loader take every file we keep.
    read = _holodeck_reads(holodeck_cli, ours, agent.parent)
    ran = [len(read_history(ours).runs[i].cases) for i in range(3)]
    assert read == {"problems": {}, "loaded": 3, "passed": read["passed"]}
    assert ran == [8, 8, 8]

    # Ours reads the folder `holodeck test` wrote, with its report's verdicts.
    folder = agent.parent / "results" / "gen3"
    assert theirs.returncode in (0, 1), output
    history = read_history(folder)
    assert history.refused == []
    (run,) = history.runs
    report = json.loads((tmp_path / "theirs.json").read_text())
    assert [c.passed for c in run.cases] == [r["passed"] for r in report["results"]]
    assert [c.label for c in run.cases] == [r["test_name"] for r in report["results"]]
    assert run.made_by == "HoloDeck 0.7.1"
    # And HoloDeck's loader reads its own folder and ours alike once they are one.
    for path in kept:
        (folder / path.name).write_bytes(path.read_bytes())
    assert _holodeck_reads(holodeck_cli, folder, agent.parent)["loaded"] == 4
    assert len(read_history(folder).runs) == 4
    code, out, err = invoke("history", folder, "--format", "json")
    assert code == 0, err
    assert len(json.loads(out)["runs"]) == 4
