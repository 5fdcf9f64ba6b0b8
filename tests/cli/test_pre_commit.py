"""The `holodeck-lsp-check` pre-commit hook, run by the real `pre-commit run`.

pre-commit builds the hook from this repository's HEAD commit (a fresh clone in CI; commit
first when trying a change) into its own virtualenv, once for the module, then runs it in
scratch git repositories holding a bad suite, a good suite and YAML that is not HoloDeck's.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO

HOOKS = REPO / ".pre-commit-hooks.yaml"
# Read before the test fixtures point HOME at a scratch folder: pip's download cache
# spares the hook's install most of its time.
PIP_CACHE = os.environ.get("PIP_CACHE_DIR") or str(Path.home() / ".cache" / "pip")

GOOD_AGENT = """\
name: support
model:
  provider: openai
  name: gpt-4o
instructions:
  inline: Answer briefly.
test_cases_file: suite.cases.yaml
"""
GOOD_CASES = """\
- name: greeting
  turns:
    - input: Hello
      ground_truth: Hi, how can I help?
"""
BAD_AGENT = """\
name: support
model:
  provider: openai
  name: gpt-4o
instructions:
  inline: Answer briefly.
test_cases:
  - name: revenue
    input: What was the revenue?
    ground_truth: 25587
"""
# Not an agent: `check --changed-files` must leave it alone.
WORKFLOW = """\
name: ci
on: [push]
jobs: {}
"""


def _hook(hook_id: str = "holodeck-lsp-check") -> dict[str, object]:
    hooks = yaml.safe_load(HOOKS.read_text(encoding="utf-8"))
    (hook,) = [h for h in hooks if h["id"] == hook_id]
    assert isinstance(hook, dict)
    return hook


def test_hook_definitions() -> None:
    hooks = yaml.safe_load(HOOKS.read_text(encoding="utf-8"))
    assert [
        {k: hook[k] for k in ("id", "entry", "language", "pass_filenames", "require_serial")}
        for hook in hooks
    ] == [
        {
            "id": "holodeck-lsp-check",
            "entry": "holodeck-lsp check --changed-files",
            "language": "python",
            "pass_filenames": True,
            "require_serial": False,
        },
        {
            "id": "holodeck-lsp-fix",
            "entry": "holodeck-lsp check --fix --changed-files",
            "language": "python",
            "pass_filenames": True,
            "require_serial": False,
        },
    ]


def test_both_hooks_receive_every_yaml_file_and_check_decides() -> None:
    """No name pattern: a test_cases_file may be called anything (`--changed-files` sorts
    HoloDeck's files from the rest: tests/cli/test_changed_files.py)."""
    for hook_id in ("holodeck-lsp-check", "holodeck-lsp-fix"):
        hook = _hook(hook_id)
        assert (hook["types"], "files" in hook, "exclude" in hook) == (["yaml"], False, False)


def _pre_commit() -> list[str] | None:
    if importlib.util.find_spec("pre_commit") is not None:
        return [sys.executable, "-m", "pre_commit"]
    found = shutil.which("pre-commit")
    return [found] if found else None


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A user's git repository: a bad suite, a good one, and a CI workflow."""
    root = tmp_path / "project"
    for rel, text in {
        "bad/agent.yaml": BAD_AGENT,
        "good/agent.yaml": GOOD_AGENT,
        "good/suite.cases.yaml": GOOD_CASES,
        ".github/workflows/ci.yml": WORKFLOW,
    }.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    _git(root, "init", "-q")
    _git(root, "add", ".")
    return root


@dataclass(frozen=True)
class PreCommit:
    """The `pre-commit` program and the home where it keeps the hook environments it built."""

    command: list[str]
    home: Path
    rev: str  # the commit of this repository the hooks are built from


def _run_hook(
    project: Path, pre_commit: PreCommit, *args: str, hook: str = "holodeck-lsp-check"
) -> tuple[int, list[str]]:
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(pre_commit.home),
        "PIP_CACHE_DIR": PIP_CACHE,
        "PRE_COMMIT_NO_CONCURRENCY": "1",  # one `check` run, so one summary line
        "PRE_COMMIT_COLOR": "never",
        "GIT_AUTHOR_NAME": "test",
        "GIT_AUTHOR_EMAIL": "test@example.invalid",
        "GIT_COMMITTER_NAME": "test",
        "GIT_COMMITTER_EMAIL": "test@example.invalid",
    }
    # `pre-commit run` with this repository at HEAD, as a user's config names it (`try-repo`
    # would build the hook's environment again on every call). Left untracked, the config is
    # no file of the commit; HEAD, not the work tree, is what gets installed.
    config = {"repos": [{"repo": str(REPO), "rev": pre_commit.rev, "hooks": [{"id": hook}]}]}
    (project / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    command = [*pre_commit.command, "run", hook, *args]
    done = subprocess.run(
        command, cwd=project, env=env, capture_output=True, text=True, timeout=900
    )
    return done.returncode, (done.stdout + done.stderr).splitlines()


def _hook_output(lines: list[str], name: str = "holodeck-lsp check.") -> list[str]:
    """What pre-commit shows of the hook: its status line and what it printed."""
    start = next(i for i, line in enumerate(lines) if line.startswith(name))
    shown = [re.sub(r"\.{3,}", "...", lines[start])]
    return shown + [line for line in lines[start + 1 :] if line]


@pytest.fixture(scope="module")
def pre_commit(tmp_path_factory: pytest.TempPathFactory) -> PreCommit:
    """pre-commit with one home for the module's tests: it builds the hook's environment from
    HEAD once (about 20 s), as a user's machine does, and each test's repository is its own."""
    command = _pre_commit()
    if command is None:
        if os.environ.get("CI"):
            pytest.fail("pre-commit is not installed: it is part of the `test` extra")
        pytest.skip("pre-commit is not installed (pip install -e '.[test]')")
    head = subprocess.run(
        ["git", "-c", "safe.directory=*", "rev-parse", "HEAD"],
        cwd=REPO, check=True, capture_output=True, text=True,
    ).stdout.strip()
    return PreCommit(command, tmp_path_factory.mktemp("pre-commit-home"), head)


@pytest.mark.slow
def test_hook_fails_on_the_bad_suite_and_passes_on_the_good_one(
    project: Path, pre_commit: PreCommit
) -> None:
    code, lines = _run_hook(project, pre_commit, "--all-files")
    assert code == 1, "\n".join(lines)
    assert _hook_output(lines) == [
        "holodeck-lsp check...Failed",
        "- hook id: holodeck-lsp-check",
        "- exit code: 1",
        "bad/agent.yaml:10:19: error HL103 expected text, got the number 25587 (unquoted in "
        'YAML); quote it: "25587" (test case "revenue": test_cases[0].ground_truth)',
        "      ground_truth: 25587",
        "                    ^^^^^",
        "3 file(s) checked: 1 error(s), 0 warning(s)",
    ]

    code, lines = _run_hook(
        project, pre_commit, "--files", "good/agent.yaml", "good/suite.cases.yaml"
    )
    assert code == 0, "\n".join(lines)
    assert _hook_output(lines) == ["holodeck-lsp check...Passed"]


@pytest.mark.slow
def test_fix_hook_quotes_the_number_and_fails_once_for_the_modified_file(
    project: Path, pre_commit: PreCommit
) -> None:
    code, lines = _run_hook(project, pre_commit, "--all-files", hook="holodeck-lsp-fix")
    assert code == 1, "\n".join(lines)
    assert _hook_output(lines, "holodeck-lsp check --fix.") == [
        "holodeck-lsp check --fix...Failed",
        "- hook id: holodeck-lsp-fix",
        "- files were modified by this hook",
        "fixed 1 problem(s) in 1 file(s)",
        "3 file(s) checked: 0 error(s), 0 warning(s)",
    ]
    fixed = (project / "bad" / "agent.yaml").read_text(encoding="utf-8")
    assert fixed == BAD_AGENT.replace("ground_truth: 25587", 'ground_truth: "25587"')
    # The second time there is nothing left to fix.
    code, lines = _run_hook(project, pre_commit, "--all-files", hook="holodeck-lsp-fix")
    assert code == 0, "\n".join(lines)
    assert _hook_output(lines, "holodeck-lsp check --fix.") == ["holodeck-lsp check --fix...Passed"]


# A suite file named by its agent, in a folder of its own, with a name no pattern knows.
AGENT_X = GOOD_AGENT.replace("suite.cases.yaml", "data/cases.yaml")


def _commit(project: Path, files: dict[str, str], message: str) -> None:
    for rel, text in files.items():
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_text(text, encoding="utf-8")
    _git(project, "add", *files)
    _git(
        project,
        "-c", "user.name=test", "-c", "user.email=test@example.invalid",
        "commit", "-q", "--no-verify", "-m", message,
    )


@pytest.mark.slow
def test_a_commit_changing_only_an_agents_test_cases_file_is_checked(
    project: Path, pre_commit: PreCommit
) -> None:
    """What `git commit` runs: the hook on the staged files alone, with no `files:` of ours."""
    _commit(
        project,
        {"agents/x/agent.yaml": AGENT_X, "agents/x/data/cases.yaml": GOOD_CASES, **{
            rel: (project / rel).read_text(encoding="utf-8")
            for rel in ("bad/agent.yaml", "good/agent.yaml", "good/suite.cases.yaml",
                        ".github/workflows/ci.yml")
        }},
        "the suites",
    )
    broken = GOOD_CASES.replace("ground_truth: Hi, how can I help?", "ground_truth: 25587")
    (project / "agents/x/data/cases.yaml").write_text(broken, encoding="utf-8")
    _git(project, "add", "agents/x/data/cases.yaml")

    code, lines = _run_hook(project, pre_commit)
    assert code == 1, "\n".join(lines)
    assert _hook_output(lines) == [
        "holodeck-lsp check...Failed",
        "- hook id: holodeck-lsp-check",
        "- exit code: 1",
        "agents/x/data/cases.yaml:4:21: error HL103 expected text, got the number 25587 "
        '(unquoted in YAML); quote it: "25587" (test case "greeting": '
        "test_cases[0].turns[0].ground_truth)",
        "        ground_truth: 25587",
        "                      ^^^^^",
        "1 file(s) checked: 1 error(s), 0 warning(s)",
    ]

    # A commit of YAML that is not HoloDeck's passes: the hook runs, and leaves it alone.
    _git(project, "checkout", "--", ".")
    _git(project, "reset", "-q", "--hard")
    (project / ".github/workflows/ci.yml").write_text(WORKFLOW + "# again\n", encoding="utf-8")
    _git(project, "add", ".github/workflows/ci.yml")
    code, lines = _run_hook(project, pre_commit)
    assert code == 0, "\n".join(lines)
    assert _hook_output(lines) == ["holodeck-lsp check...Passed"]
