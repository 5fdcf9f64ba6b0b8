"""`holodeck-lsp check` as pre-commit and CI call it: arguments in, output and exit code out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from holodeck_lsp.cli import app
from tests.conftest import FIXTURES
from tests.support.cli_runner import CliRunner
from tests.support.suites import suite

runner = CliRunner()
INVALID = FIXTURES / "invalid"
VALID = FIXTURES / "valid"


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, ["check", "--no-user-config", *args], input=stdin)
    return result.exit_code, result.output


def test_clean_folder_exits_zero() -> None:
    code, out = invoke(str(VALID))
    assert code == 0, out
    assert out.endswith("9 file(s) checked: 0 error(s), 0 warning(s)\n")


def test_errors_exit_one_with_position_code_and_caret() -> None:
    code, out = invoke(str(INVALID / "matchers.yaml"), "--no-color")
    assert code == 1, out
    first = out.splitlines()[:3]
    assert first == [
        f"{INVALID / 'matchers.yaml'}:20:15: error HL402 a matcher has exactly one of 'fuzzy' or "
        "'regex', not both (test case \"matchers\": "
        "test_cases[0].turns[0].expected_tools[0].args.a)",
        '                a: {fuzzy: "5", regex: "5"}',
        "                " + "^",
    ]


def test_warnings_only_exit_zero() -> None:
    code, out = invoke(str(INVALID / "expected_tools_warnings.yaml"))
    assert code == 0, out
    assert "0 error(s), 5 warning(s)" in out


def test_missing_path_is_a_usage_error() -> None:
    code, out = invoke("does/not/exist.yaml")
    assert code == 2
    assert "cannot read does/not/exist.yaml" in out


def test_bad_severity_flag_is_a_usage_error() -> None:
    code, _ = invoke("--severity", "HL999=error", str(VALID))
    assert code == 2


def test_severity_override_turns_an_error_off() -> None:
    code, out = invoke(
        "--severity", "HL401=off", "--format", "json", str(INVALID / "matchers.yaml")
    )
    codes = [d["code"] for d in json.loads(out)["files"][0]["diagnostics"]]
    assert codes == ["HL402", "HL403", "HL404"]
    assert code == 1


def test_json_contract() -> None:
    code, out = invoke("--format", "json", str(INVALID / "wrong_type_unquoted.yaml"))
    assert code == 1
    document = json.loads(out)
    assert document == {
        "files": [
            {
                "file": str(INVALID / "wrong_type_unquoted.yaml"),
                "diagnostics": [
                    {
                        "line": 9,
                        "column": 19,
                        "end_line": 9,
                        "end_column": 24,
                        "severity": "error",
                        "code": "HL103",
                        "message": "expected text, got the number 25587 (unquoted in YAML); "
                        "quote it: "
                        '"25587" (test_cases[0].ground_truth)',
                        "path": "test_cases[0].ground_truth",
                        "related": [],
                    },
                    {
                        "line": 11,
                        "column": 19,
                        "end_line": 11,
                        "end_column": 21,
                        "severity": "error",
                        "code": "HL103",
                        "message": "expected text, got the boolean false (unquoted in YAML); "
                        "quote it: "
                        '"no" (test_cases[1].ground_truth)',
                        "path": "test_cases[1].ground_truth",
                        "related": [],
                    },
                ],
            }
        ],
        "unreadable": [],
    }


def test_json_lists_referenced_files_and_clean_files() -> None:
    code, out = invoke("--format", "json", str(INVALID / "cases_file_errors"))
    files = {
        Path(f["file"]).name: [d["code"] for d in f["diagnostics"]]
        for f in json.loads(out)["files"]
    }
    assert files == {"agent.yaml": [], "suite.yaml": ["HL307", "HL401"]}
    assert code == 1


def test_stdin_with_filename() -> None:
    text = (INVALID / "turns_empty_and_missing_input.yaml").read_text()
    code, out = invoke("-", "--stdin-filename", "suite/agent.yaml", "--format", "json", stdin=text)
    document = json.loads(out)
    assert [f["file"] for f in document["files"]] == ["suite/agent.yaml"]
    assert [d["code"] for d in document["files"][0]["diagnostics"]] == ["HL202", "HL203"]
    assert code == 1


def test_github_annotations() -> None:
    code, out = invoke("--format", "github", str(INVALID / "unknown_key.yaml"))
    assert code == 1
    assert out == (
        f"::error file={INVALID / 'unknown_key.yaml'},line=9,col=5,endLine=9,endColumn=17,"
        "title=HL101 unknown-key::unknown key 'ground_truht'; did you mean 'ground_truth'? "
        "(test_cases[0].ground_truht)\n"
    )


def test_sarif_has_rules_and_results() -> None:
    code, out = invoke("--format", "sarif", str(INVALID / "yaml_tab.yaml"))
    run = json.loads(out)["runs"][0]
    assert code == 1
    assert [r["ruleId"] for r in run["results"]] == ["HL002"]
    assert run["results"][0]["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 8,
        "startColumn": 1,
        "endLine": 8,
        "endColumn": 2,
    }
    assert {r["id"] for r in run["tool"]["driver"]["rules"]} >= {"HL001", "HL401"}


def imported_by_check(path: Path, prefixes: tuple[str, ...]) -> list[str]:
    """The modules starting with one of ``prefixes`` that a fresh `check PATH` imported."""
    import ast
    import os
    import subprocess
    import sys

    probe = (
        "import sys; import holodeck_lsp.__main__ as program; sys.argv=['holodeck-lsp','check',"
        f"'--no-user-config', {str(path)!r}]\n"
        "try:\n    program.main()\nexcept SystemExit:\n    pass\n"
        f"print(sorted(m for m in sys.modules if m.startswith({prefixes!r})))"
    )
    # The check ends without teardown (quick_exit.py): turned off, to see what it loaded.
    env = {**os.environ, "HOLODECK_LSP_WITHOUT": "quick-exit"}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, env=env)
    return list(ast.literal_eval(out.stdout.strip().splitlines()[-1]))


def test_check_does_not_import_the_language_server() -> None:
    # start-up is a pre-commit hook's budget: nothing of the server or the runner
    server_only = ("pygls", "lsprotocol", "holodeck_lsp.server", "holodeck_lsp.runner",
                   "holodeck_lsp.validation.yaml.incremental", "mcp", "httpx2")  # fmt: skip
    assert imported_by_check(VALID, server_only) == []


@pytest.mark.parametrize(
    ("agent", "imported"),
    [
        ("name: a\nmodel: {provider: openai, name: m}\ninstructions: {inline: hi}\n", []),
        (
            "name: a\nmodel: {provider: openai, name: m}\ninstructions: {inline: hi}\n"
            "response_format: {type: object}\n",
            ["jsonschema"],
        ),
    ],
    ids=["plain", "response_format"],
)
def test_check_imports_jsonschema_only_for_a_response_format(
    tmp_path: Path, agent: str, imported: list[str]
) -> None:
    (tmp_path / "agent.yaml").write_text(agent, encoding="utf-8")
    assert imported_by_check(tmp_path / "agent.yaml", ("jsonschema",))[:1] == imported


def test_a_value_from_the_project_config_is_traced_back_to_it() -> None:
    # The tool names vector store 'docs'; its bad option is written in config.yaml.
    folder = INVALID / "config_vectorstore"
    code, out = invoke(str(folder / "agent.yaml"), "--no-color")
    assert code == 1, out
    assert out.splitlines() == [
        f"{folder / 'agent.yaml'}:12:5: error HL103 expected text, got the number 5; the "
        "database is vector store 'docs' of config.yaml (tools[0].database.connection_string)",
        "      database: docs",
        "      ^^^^^^^^",
        f"  note: {folder / 'config.yaml'}:6:26: vector store 'docs'",
        "2 file(s) checked: 1 error(s), 0 warning(s)",
    ]
    code, out = invoke(str(folder / "agent.yaml"), "--format", "json")
    (diagnostic,) = json.loads(out)["files"][0]["diagnostics"]
    assert diagnostic["related"] == [
        {
            "file": str(folder / "config.yaml"),
            "line": 6,
            "column": 26,
            "message": "vector store 'docs'",
        }
    ]
    code, out = invoke(str(folder / "agent.yaml"), "--format", "sarif")
    (result,) = json.loads(out)["runs"][0]["results"]
    (related,) = result["relatedLocations"]
    assert related["message"] == {"text": "vector store 'docs'"}
    assert related["physicalLocation"]["region"] == {
        "startLine": 6,
        "startColumn": 26,
        "endLine": 6,
        "endColumn": 27,
    }


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        ("latin1.yaml", "is not UTF-8 text (byte 12 cannot be decoded)"),
        ("cases", "is a folder, not a file"),
        ("absent.yaml", "not found"),
    ],
)
def test_an_unreadable_test_cases_file_says_why(tmp_path: Path, target: str, reason: str) -> None:
    (tmp_path / "latin1.yaml").write_bytes(b"- input: caf\xe9\n")
    (tmp_path / "cases").mkdir()
    agent = tmp_path / "agent.yaml"
    agent.write_text(
        "name: a\nmodel:\n  provider: openai\n  name: gpt-4o\ninstructions:\n  inline: hi\n"
        f"test_cases_file: {target}\n"
    )
    code, out = invoke(str(agent), "--no-color")
    assert code == 1, out
    assert out.splitlines()[0] == (
        f"{agent}:7:18: error HL601 test_cases_file {target!r} {reason} "
        f"(looked for {tmp_path / target}) (test_cases_file)"
    )


def test_a_vector_store_name_config_yaml_does_not_define_is_a_warning() -> None:
    # HoloDeck loads the agent and runs such a tool on in-memory storage.
    folder = INVALID / "vectorstore_unknown"
    code, out = invoke(str(folder / "agent.yaml"), "--no-color")
    assert code == 0, out
    assert [line for line in out.splitlines() if "HL606" in line] == [
        f"{folder / 'agent.yaml'}:12:15: warning HL606 no vector store 'doc' in config.yaml "
        "(it has docs); HoloDeck falls back to in-memory storage; did you mean 'docs'? "
        "(tools[0].database)",
        f"{folder / 'agent.yaml'}:17:15: warning HL606 no vector store 'archive' in config.yaml "
        "(it has docs); HoloDeck falls back to in-memory storage (tools[1].database)",
    ]
    assert out.splitlines()[-1] == "2 file(s) checked: 0 error(s), 2 warning(s)"


@pytest.mark.parametrize("from_config", [False, True])
def test_a_variable_inside_a_database_mapping_is_no_error(
    tmp_path: Path, from_config: bool
) -> None:
    # `${DB_PROVIDER}` is known only once set; the mapping branch failing on it is no reason
    # to say the text branch wanted text (that was an error HoloDeck never gives).
    database = "docs" if from_config else "\n      provider: ${DB_PROVIDER}"
    if from_config:
        (tmp_path / "config.yaml").write_text(
            "vectorstores:\n  docs:\n    provider: ${DB_PROVIDER}\n    connection_string: x\n"
        )
    agent = tmp_path / "agent.yaml"
    agent.write_text(
        "name: a\nmodel:\n  provider: openai\n  name: gpt-4o\ninstructions:\n  inline: hi\n"
        "tools:\n  - name: kb\n    type: vectorstore\n    description: d\n    source: data/\n"
        f"    database: {database}\ntest_cases:\n  - input: hi\n"
    )
    code, out = invoke(str(agent), "--no-color")
    assert (code, out.splitlines()[-1]) == (
        0,
        f"{2 if from_config else 1} file(s) checked: 0 error(s), 0 warning(s)",
    ), out


def test_a_vector_store_the_config_defines_is_never_unknown(tmp_path: Path) -> None:
    # A `${VAR}` where the config wants a choice keeps the merge from judging the config;
    # the store is still there by name, so no HL606 saying it is not.
    (tmp_path / "config.yaml").write_text(
        "providers:\n  main:\n    provider: ${LLM_PROVIDER}\n    name: gpt-4o\n"
        "vectorstores:\n  docs:\n    provider: postgres\n    connection_string: x\n"
    )
    agent = tmp_path / "agent.yaml"
    agent.write_text(
        "name: a\nmodel:\n  provider: openai\n  name: gpt-4o\ninstructions:\n  inline: hi\n"
        "tools:\n  - name: kb\n    type: vectorstore\n    description: d\n    source: data/\n"
        "    database: docs\ntest_cases:\n  - input: hi\n"
    )
    code, out = invoke(str(agent), "--no-color")
    assert (code, out) == (0, "2 file(s) checked: 0 error(s), 0 warning(s)\n")


PROGRAM = Path(sys.executable).with_name("holodeck-lsp")


def test_the_program_writes_its_whole_report_before_it_ends(tmp_path: Path) -> None:
    # `check` ends without the interpreter's teardown (__main__._leave): a report far past
    # a pipe's buffer still arrives whole, with the exit code, as CliRunner sees it.
    path = tmp_path / "agent.yaml"
    path.write_text(suite(400).replace("    turns:\n", "    flavour: sweet\n    turns:\n"))
    args = ["check", "--no-user-config", "--format", "json", str(path)]
    done = subprocess.run([str(PROGRAM), *args], capture_output=True, text=True, timeout=120)
    assert len(done.stdout) > 2**17
    expected = runner.invoke(app, args)
    assert (done.returncode, json.loads(done.stdout)) == (1, json.loads(expected.stdout))
    assert len(json.loads(done.stdout)["files"][0]["diagnostics"]) == 400


def test_a_reader_that_goes_away_ends_the_check_with_one_and_no_traceback(
    tmp_path: Path,
) -> None:
    path = tmp_path / "agent.yaml"
    path.write_text(suite(400).replace("    turns:\n", "    flavour: sweet\n    turns:\n"))
    read, write = os.pipe()
    os.close(read)  # nobody reads the report
    try:
        done = subprocess.run([str(PROGRAM), "check", "--no-user-config", str(path)],
                              stdout=write, stderr=subprocess.PIPE, timeout=120)
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (1, b"")  # click's answer to a broken pipe
