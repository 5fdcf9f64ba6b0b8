"""Files a YAML file names, as an attacker names them (issue 19, items 3 and 4):
`/proc/self/environ`, `/dev/zero`, a FIFO, a committed link to a device, a file outside
the repository, a binary file, a 300 MB file. `check` runs as pre-commit.ci runs it, in a
child process with a planted secret in its environment, at most 200 MB of memory and a
hang guard: each is one positioned diagnostic, quickly, and none of their bytes is printed.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

SECRET = "hl-planted-secret-4f1c9a2e7b"
MEMORY = 200 * 2**20  # bytes of data the child may allocate
CPU_SECONDS = 2.0  # CPU, not wall time: the machine running the tests may be busy
HANG_GUARD = 60  # seconds: only a hang takes this long
AGENT = (
    "name: a\nmodel:\n  provider: openai\n  name: gpt-4o\ninstructions:\n  inline: hi\n"
)


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_DATA, (MEMORY, MEMORY))


def check(*args: str, cwd: Path) -> tuple[int, str]:
    """`holodeck-lsp check ARGS` in a child with the secret in its environment; its exit
    code and output (stdout and stderr), after asserting it stayed within its budget."""
    env = {**os.environ, "SECRET_TOKEN": SECRET}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-c", "from holodeck_lsp.cli import main; main()", "check",
         "--no-user-config", "--no-color", *args],
        cwd=cwd, env=env, capture_output=True, timeout=HANG_GUARD, preexec_fn=_limit_memory,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    out = (done.stdout + done.stderr).decode("utf-8", "replace")
    assert "MemoryError" not in out and "Traceback" not in out, out
    assert cpu < CPU_SECONDS, f"{cpu:.2f} s of CPU"
    assert SECRET not in out and "\x00" not in out
    return done.returncode, out


def project(tmp_path: Path) -> Path:
    """A repository: its root (a folder with `.git`) is the project."""
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    return root


def secret_suite(path: Path) -> Path:
    """A suite outside the project whose test case is named by the secret (an unknown key
    makes a diagnostic whose message would name the case)."""
    path.parent.mkdir(parents=True)
    path.write_text(f"- name: {SECRET}\n  input: hi\n  bogus: 1\n", encoding="utf-8")
    return path


def agent_naming(root: Path, target: str) -> Path:
    agent = root / "agent.yaml"
    agent.write_text(AGENT + f"test_cases_file: {target}\n", encoding="utf-8")
    return agent


@pytest.mark.parametrize(
    ("key", "target", "kind"),
    [
        ("test_cases_file", "/proc/self/environ", "a file of /proc"),
        ("test_cases_file", "/dev/zero", "a character device"),
        ("test_cases_file", "cases.yaml", "a FIFO (named pipe)"),  # made by the test
        ("response_format", "/proc/self/environ", "a file of /proc"),
        ("response_format", "schema.json", "a FIFO (named pipe)"),  # made by the test
    ],
)
def test_a_special_file_is_one_error_and_never_read(
    tmp_path: Path, key: str, target: str, kind: str
) -> None:
    root = project(tmp_path)
    if not target.startswith("/"):
        os.mkfifo(root / target)
    (root / "agent.yaml").write_text(AGENT + f"{key}: {target}\n", encoding="utf-8")
    code, out = check("agent.yaml", cwd=root)
    assert code == 1
    named = "response_format schema file" if key == "response_format" else key
    assert out.splitlines() == [
        f"agent.yaml:7:18: error HL608 {named} {target!r} is {kind}, not a regular file "
        f"(looked for {target}) ({key})",
        f"  {key}: {target}",
        "                   " + "^" * len(target),
        "1 file(s) checked: 1 error(s), 0 warning(s)",
    ]


def test_a_response_format_schema_file_outside_the_project_is_never_quoted(
    tmp_path: Path,
) -> None:
    root = project(tmp_path)
    secret = tmp_path / "home" / "tokens.json"
    secret.parent.mkdir()
    secret.write_text(f'{{"type": "{SECRET}"}}', encoding="utf-8")
    (root / "agent.yaml").write_text(AGENT + f"response_format: {secret}\n", encoding="utf-8")
    code, out = check("agent.yaml", cwd=root)
    assert code == 0
    named = f"response_format schema file {str(secret)!r}"
    assert [line for line in out.splitlines() if "warning" in line] == [
        f"agent.yaml:7:18: warning HL607 {named} is outside the project ({root}): it is "
        "validated, but none of its lines is shown (response_format)",
        f"agent.yaml:7:18: warning HL612 {named} is not a JSON Schema (response_format)",
        "1 file(s) checked: 0 error(s), 2 warning(s)",
    ]


def test_a_folder_walk_reports_a_fifo_and_a_link_to_a_device(tmp_path: Path) -> None:
    root = project(tmp_path)
    suites = root / "suites"
    suites.mkdir()
    os.mkfifo(suites / "tests.yaml")
    (suites / "zero.agent.yaml").symlink_to("/dev/zero")
    code, out = check("suites", cwd=root)
    assert code == 1
    assert out.splitlines() == [
        "suites/tests.yaml:1:1: error HL608 the file is a FIFO (named pipe), not a regular "
        "file: it is not read",
        "suites/zero.agent.yaml:1:1: error HL608 the file is a character device, not a "
        "regular file: it is not read",
        "2 file(s) checked: 2 error(s), 0 warning(s)",
    ]


def test_a_folder_walk_does_not_follow_a_link_out_of_the_project(tmp_path: Path) -> None:
    root = project(tmp_path)
    secret = secret_suite(tmp_path / "home" / ".config" / "tokens.yaml")
    (root / "tests.yaml").symlink_to(secret)
    code, out = check(".", cwd=root)
    assert code == 0
    assert out.splitlines() == [
        f"tests.yaml:1:1: warning HL607 the file is a link to {secret}, outside the project "
        f"({root}): it is not read",
        "1 file(s) checked: 0 error(s), 1 warning(s)",
    ]


def test_a_file_outside_the_project_is_validated_but_never_shown(tmp_path: Path) -> None:
    root = project(tmp_path)
    secret_suite(tmp_path / "shared" / "cases.yaml")
    agent_naming(root, "../shared/cases.yaml")
    code, out = check("agent.yaml", cwd=root)
    assert code == 1  # validated: the unknown key is still an error
    assert out.splitlines() == [
        "agent.yaml:7:18: warning HL607 test_cases_file '../shared/cases.yaml' is outside the "
        f"project ({root}): it is validated, but none of its lines is shown (test_cases_file)",
        "  test_cases_file: ../shared/cases.yaml",
        "                   ^^^^^^^^^^^^^^^^^^^^",
        "../shared/cases.yaml:3:3: error HL101 A key the model does not declare. (details "
        "withheld: the file is outside the project)",
        "2 file(s) checked: 1 error(s), 1 warning(s)",
    ]


def test_a_binary_file_is_one_diagnostic(tmp_path: Path) -> None:
    root = project(tmp_path)
    (root / "cases.yaml").write_bytes(b"- input: hi\n" + b"\x00\x01" * 5000)
    agent_naming(root, "cases.yaml")
    code, out = check("agent.yaml", cwd=root)
    assert code == 1
    assert out.splitlines() == [
        "agent.yaml:7:18: error HL609 test_cases_file 'cases.yaml' is a binary file (a NUL byte "
        "at byte 12) (looked for cases.yaml) (test_cases_file)",
        "  test_cases_file: cases.yaml",
        "                   ^^^^^^^^^^",
        "1 file(s) checked: 1 error(s), 0 warning(s)",
    ]


def test_a_300_mb_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    root = project(tmp_path)
    huge = root / "tests.yaml"
    with huge.open("wb") as stream:  # sparse: costs no disk
        stream.truncate(300 * 2**20)
    code, out = check("tests.yaml", cwd=root)
    assert code == 1
    assert out.splitlines() == [
        "tests.yaml:1:1: error HL007 the file has 314,572,800 bytes, over the limit of "
        "24,000,000 (document size limit)",
        "1 file(s) checked: 1 error(s), 0 warning(s)",
    ]
