"""`run` keeps every run with results as `holodeck test` keeps it: an EvalRun in
`results/<slug>/` beside the agent file, named by its timestamp, with its prompt version,
command line, commit and redacted configuration. Keeping never changes the exit code;
shards are kept once, by `merge`; resuming and retrying only ever add."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from holodeck_lsp.history.run_history import read_history
from holodeck_lsp.models.eval_run import EvalRun
from holodeck_lsp.runner.report.run_keeping.git_commits import git_commit
from holodeck_lsp.runner.report.run_keeping.kept_run_files import keep_file
from tests.runner.fake_model import Action, FakeModelServer, Hang, last_user_text
from tests.runner.faults import KEY, answer, cli, question, suite
from tests.runner.helpers import ECHO, invoke, write

PROMPT = "---\nversion: v7\nauthor: Ada\ntags: [finance]\nticket: FIN-12\n---\n\nEcho.\n"
BODY_HASH = "be56f5107967fb4fc035d7cc0b25474e4f0e552f52de52b91f0240d5e87eacf8"
AGENT = """
name: Echo Agent (v2)
model: {provider: openai, name: gpt-4o-mini, api_key: sk-written-in-the-file-0001}
instructions: {file: prompt.md}
test_cases:
  - name: first
    turns:
      - {input: hello, ground_truth: hello, evaluations: [{metric: equality}]}
      - {input: again, ground_truth: "no", evaluations: [{metric: equality}]}
  - name: second
    input: single
    ground_truth: single
    evaluations: [{metric: equality}]
"""


def echo_suite(folder: Path) -> Path:
    return write(folder, {"agent.yaml": AGENT, "prompt.md": PROMPT, "echo.py": ECHO})


def kept(folder: Path) -> list[Path]:
    return sorted(folder.iterdir()) if folder.is_dir() else []


def test_a_run_is_kept_beside_its_agent_as_holodeck_keeps_it(tmp_path: Path) -> None:
    agent = echo_suite(tmp_path)
    code, out, err = invoke("run", agent, "--agent", "echo:factory")
    assert code == 1, err  # `again` is not `no`
    (path,) = kept(tmp_path / "results" / "echo-agent-v2")
    assert out.splitlines()[-1] == f"run kept: {path}"
    run = EvalRun.model_validate_json(path.read_text())
    assert path.name == run.report.timestamp.replace(":", "-") + ".json"
    assert path.stat().st_mode & 0o777 == 0o666 & ~_umask()
    prompt = run.metadata.prompt_version.model_dump()
    assert prompt == {
        "version": "v7",
        "author": "Ada",
        "description": None,
        "tags": ["finance"],
        "source": "file",
        "file_path": str(tmp_path.resolve() / "prompt.md"),
        "body_hash": BODY_HASH,
        "extra": {"ticket": "FIN-12"},
    }
    assert run.metadata.cli_args == ["run", str(agent), "--agent", "echo:factory"]
    assert run.metadata.holodeck_version == "0.7.1"
    assert run.metadata.git_commit is None  # not in a repository
    # The configuration as the run loaded it, the key redacted as HoloDeck redacts it.
    assert run.metadata.agent_config["model"] == {
        "provider": "openai",
        "name": "gpt-4o-mini",
        "api_key": "***",
    }
    assert "sk-written-in-the-file-0001" not in path.read_text()
    assert [c.passed for c in run.report.results] == [False, True]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_history_dir_keeps_elsewhere_and_no_history_keeps_nothing(tmp_path: Path) -> None:
    agent = echo_suite(tmp_path)
    invoke("run", agent, "--agent", "echo:factory", "-q", "--history-dir", tmp_path / "ci")
    invoke("run", agent, "--agent", "echo:factory", "-q", "--no-history")
    assert len(kept(tmp_path / "ci")) == 1
    assert not (tmp_path / "results").exists()


def test_a_run_that_cannot_be_kept_warns_and_keeps_its_exit_code(tmp_path: Path) -> None:
    agent = echo_suite(tmp_path)
    (tmp_path / "results").write_text("a file where the folder would go")
    code, out, err = invoke("run", agent, "--agent", "echo:factory")
    assert code == 1
    assert "run kept" not in out
    assert err.splitlines()[-1] == (
        f"warning: the run was not kept in its history ({tmp_path / 'results' / 'echo-agent-v2'}"
        ": Not a directory); the exit code is the run's"
    )
    # A frontmatter HoloDeck cannot read either: the run is not kept, and says why.
    (tmp_path / "prompt.md").write_text("---\ntags: [1, 2]\n---\nEcho.\n")
    code, _, err = invoke("run", agent, "--agent", "echo:factory", "--history-dir", tmp_path)
    assert code == 1
    assert err.splitlines()[-1].startswith(
        f"warning: the run was not kept in its history (the frontmatter of "
        f"{tmp_path.resolve() / 'prompt.md'} is not a prompt version: 2 validation errors"
    )


def test_the_same_run_is_kept_once_and_another_with_its_timestamp_beside_it(
    tmp_path: Path,
) -> None:
    def text(passed: bool, args: list[str]) -> str:
        return json.dumps({"report": {"passed": passed}, "metadata": {"cli_args": args}})

    stamp = "2026-01-02T03:04:05.678+00:00"
    first, written = keep_file(tmp_path, stamp, text(True, ["run"]))
    assert (first.name, written) == ("2026-01-02T03-04-05.678+00-00.json", True)
    # The same report again (a retried merge, another command line): nothing added.
    assert keep_file(tmp_path, stamp, text(True, ["merge", "-o", "x"])) == (first, False)
    other, written = keep_file(tmp_path, stamp, text(False, ["run"]))
    assert written and other.name.startswith("2026-01-02T03-04-05.678+00-00-")
    assert len(other.name) == len(first.name) + 5  # `-` and four hex digits of its content
    assert keep_file(tmp_path, stamp, text(False, ["run"])) == (other, False)
    assert json.loads(first.read_text())["report"] == {"passed": True}
    assert len(kept(tmp_path)) == 2


def test_shards_keep_nothing_and_merge_keeps_the_whole_run_once(tmp_path: Path) -> None:
    agent = echo_suite(tmp_path)
    shards, said = [], []
    for index in (1, 2, 3):
        shard = tmp_path / f"shard{index}.json"
        _, out, _ = invoke("run", agent, "--agent", "echo:factory", "--shard", f"{index}/3",
                           "-o", shard)  # fmt: skip
        said.append(out.splitlines()[-1])
        shards.append(shard)
    # A shard that ran cases says where its run will be kept; one that ran none, nothing.
    note = "shard run not kept: `merge` of the shards keeps the whole run"
    assert note in said and not any(line.startswith("run kept") for line in said)
    folder = tmp_path / "results" / "echo-agent-v2"
    assert kept(folder) == []
    _, out, err = invoke("merge", *shards, "-o", tmp_path / "all.json")
    (path,) = kept(folder)
    assert out.splitlines()[-1] == f"run kept: {path}", err
    run = EvalRun.model_validate_json(path.read_text())
    assert [r.test_name for r in run.report.results] == ["first", "second"]
    assert run.metadata.cli_args[0] == "merge"
    # A retried merge adds nothing; merging one whole report keeps nothing either.
    _, out, _ = invoke("merge", *reversed(shards), "-o", tmp_path / "again.json")
    assert out.splitlines()[-1] == f"run kept already: {path}"
    invoke("merge", tmp_path / "all.json", "-o", tmp_path / "copy.json")
    assert kept(folder) == [path]


def test_a_merge_whose_agent_file_changed_since_the_shards_ran_keeps_nothing(
    tmp_path: Path,
) -> None:
    agent = echo_suite(tmp_path)
    shards = [tmp_path / f"shard{index}.json" for index in (1, 2, 3)]
    for index, shard in enumerate(shards, 1):
        invoke("run", agent, "--agent", "echo:factory", "-q", "--shard", f"{index}/3", "-o", shard)
    agent.write_text(agent.read_text().replace("input: single", "input: changed"))
    code, out, err = invoke("merge", *shards, "-o", tmp_path / "all.json")
    assert code == 1
    assert "run kept" not in out
    assert err.splitlines()[-1] == (
        f"warning: the run was not kept in its history ({agent} no longer holds the test "
        "cases the shards ran); the exit code is the run's"
    )
    assert not (tmp_path / "results").exists()


def test_a_repeated_run_keeps_every_attempt(tmp_path: Path) -> None:
    agent = echo_suite(tmp_path)
    invoke("run", agent, "--agent", "echo:factory", "-q", "--repeat", "3")
    (path,) = kept(tmp_path / "results" / "echo-agent-v2")
    run = EvalRun.model_validate_json(path.read_text())
    assert [r.test_name for r in run.report.results] == ["first"] * 3 + ["second"] * 3
    assert run.report.environment["case_indexes"] == "0,0,0,1,1,1"
    assert run.report.summary.total_tests == 6
    assert "repeats" not in json.loads(path.read_text())["report"]
    (record,) = read_history(path.parent).runs
    assert [(c.label, c.attempts, c.passed) for c in record.cases] == [
        ("first", ("pf", "pf", "pf"), False),
        ("second", ("p", "p", "p"), True),
    ]


def test_an_interrupted_run_is_kept_and_resuming_it_adds_the_whole_run(tmp_path: Path) -> None:
    def hanging(path: str, body: dict[str, Any]) -> Action:
        return Hang() if last_user_text(body) == question(3, 1) else answer(path, body)

    record = tmp_path / "recording.jsonl"
    with FakeModelServer(hanging) as server:
        agent = suite(tmp_path, server.url)
        process = cli("run", agent, "-q", "--record", record)
        server.wait_for_requests(11)  # cases 0-2 and case 3's turn 0 are done, turn 1 hangs
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=10)
    assert process.returncode == 130, err
    folder = tmp_path / "results" / "faults"
    (partial,) = kept(folder)
    before = partial.read_bytes()
    stopped = EvalRun.model_validate_json(before).report
    assert stopped.environment["stop_reason"] == "interrupted by Ctrl-C (SIGINT)"
    assert [r.test_name for r in stopped.results] == ["case 0", "case 1", "case 2"]
    with FakeModelServer(answer) as server:
        agent = suite(tmp_path, server.url)
        code, _, err = invoke("run", agent, "-q", "--resume", record)
    assert code == 0, err
    assert kept(folder)[0] == partial and partial.read_bytes() == before
    runs = read_history(folder).runs
    assert [(r.interrupted, len(r.cases)) for r in runs] == [(True, 3), (False, 5)]
    assert all(KEY not in p.read_text() for p in kept(folder))


@pytest.mark.parametrize("layout", ["loose", "packed", "detached", "worktree"])
def test_the_commit_is_read_from_the_repository_s_files(tmp_path: Path, layout: str) -> None:
    commit = "0123456789abcdef0123456789abcdef01234567"
    git = tmp_path / "repo" / ".git"
    (git / "refs" / "heads").mkdir(parents=True)
    (git / "HEAD").write_text("ref: refs/heads/main\n")
    if layout == "loose":
        (git / "refs" / "heads" / "main").write_text(commit + "\n")
    elif layout == "packed":
        (git / "packed-refs").write_text(f"# pack-refs\n{commit} refs/heads/main\n")
    elif layout == "detached":
        (git / "HEAD").write_text(commit + "\n")
    else:
        worktree = git / "worktrees" / "wt"
        worktree.mkdir(parents=True)
        (worktree / "HEAD").write_text("ref: refs/heads/feature\n")
        (worktree / "commondir").write_text("../..\n")
        (git / "refs" / "heads" / "feature").write_text(commit + "\n")
        (tmp_path / "wt").mkdir()
        (tmp_path / "wt" / ".git").write_text(f"gitdir: {worktree}\n")
    folder = tmp_path / ("wt" if layout == "worktree" else "repo") / "suites" / "a"
    folder.mkdir(parents=True)
    assert git_commit(folder) == commit
    (git / "HEAD").write_text("ref: refs/heads/unborn\n")
    if layout != "worktree":
        assert git_commit(folder) is None


def test_the_html_report_shows_each_turn_s_record_over_the_runs_kept_before(
    tmp_path: Path,
) -> None:
    agent = echo_suite(tmp_path)
    page = tmp_path / "report.html"
    invoke("run", agent, "--agent", "echo:factory", "-q", "-o", page)
    assert "history:" not in page.read_text()  # nothing kept before the first run
    invoke("run", agent, "--agent", "echo:factory", "-q")
    invoke("run", agent, "--agent", "echo:factory", "-q", "-o", page)
    html = page.read_text()
    (first, *_) = read_history(tmp_path / "results" / "echo-agent-v2").runs
    since = first.time.strftime("%Y-%m-%d %H:%M:%S") if first.time else ""
    assert html.count('<span class="hist">history: passed 2 of the last 2 run(s)</span>') == 2
    assert (
        '<span class="hist">history: passed 0 of the last 2 run(s); failing since '
        f"{since}</span>" in html
    )
