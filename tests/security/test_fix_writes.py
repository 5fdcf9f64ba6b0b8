"""`check --fix` writes (issue 19, item 8): only regular files inside the project, never
through `test_cases_file: ../outside/x.yaml` or a link leading out; through a temporary
file renamed over the original, which keeps its mode; a refused write is reported."""

from __future__ import annotations

import stat
from pathlib import Path

from holodeck_lsp.cli import app
from tests.support.cli_runner import CliRunner

AGENT = "name: a\nmodel:\n  provider: openai\n  name: gpt-4o\ninstructions:\n  inline: hi\n"
FIXABLE = "- input: q\n  ground_truth: 206588\n"  # the fix quotes the number
FIXED = '- input: q\n  ground_truth: "206588"\n'


def check(*args: str | Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["check", "--no-user-config", "--no-color", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


def project(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    return root


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_fix_writes_nothing_outside_the_project(tmp_path: Path) -> None:
    root = project(tmp_path)
    named = write(tmp_path / "outside" / "named.yaml", FIXABLE)
    linked = write(tmp_path / "outside" / "linked.yaml", FIXABLE)
    write(root / "named.agent.yaml", AGENT + "test_cases_file: ../outside/named.yaml\n")
    write(root / "linked.agent.yaml", AGENT + "test_cases_file: cases.yaml\n")
    (root / "cases.yaml").symlink_to(linked)
    code, out, err = check("--diff", root)
    # No fix offered for a file not shown (no patch on stdout); its errors are still
    # reported (on stderr, beside a patch) and fail the check.
    assert (code, out) == (1, "")
    assert "HL103" in err and "would fix" not in err
    code, out, err = check("--fix", root)
    assert code == 1, out  # the errors out there are still reported
    assert err == ""
    assert named.read_text(encoding="utf-8") == FIXABLE
    assert linked.read_text(encoding="utf-8") == FIXABLE
    assert (root / "cases.yaml").is_symlink()
    assert sorted(p.name for p in tmp_path.joinpath("outside").iterdir()) == [
        "linked.yaml", "named.yaml"]  # fmt: skip


def test_fix_replaces_the_file_whole_keeping_its_mode_and_links(tmp_path: Path) -> None:
    root = project(tmp_path)
    agent = write(root / "agent.yaml", AGENT + "test_cases_file: cases.yaml\n")
    data = write(root / "data" / "cases.yaml", FIXABLE)
    data.chmod(0o640)
    (root / "cases.yaml").symlink_to(Path("data") / "cases.yaml")
    inode = data.stat().st_ino
    code, out, err = check("--fix", agent)
    assert (code, err) == (0, "fixed 1 problem(s) in 1 file(s)\n"), out
    assert data.read_text(encoding="utf-8") == FIXED
    assert (root / "cases.yaml").is_symlink()  # the link stays a link to the fixed file
    assert stat.S_IMODE(data.stat().st_mode) == 0o640
    # A reader sees the old file or the new one, never a half-written one: a new file
    # was renamed over the old, and no temporary file is left behind.
    assert data.stat().st_ino != inode
    assert sorted(p.name for p in data.parent.iterdir()) == ["cases.yaml"]


def test_a_read_only_file_is_not_written_and_the_refusal_is_reported(tmp_path: Path) -> None:
    root = project(tmp_path)
    agent = write(root / "agent.yaml", AGENT + "test_cases_file: cases.yaml\n")
    cases = write(root / "cases.yaml", FIXABLE)
    cases.chmod(0o444)
    code, _, err = check("--fix", agent)
    assert code == 1
    assert err == f"error: not writing the fixes of {cases}: the file is read-only\n"
    assert cases.read_text(encoding="utf-8") == FIXABLE
