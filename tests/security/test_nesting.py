"""Nested input is a diagnostic or a refusal, never `internal error: RecursionError`
(issue 29 item 4). Python's JSON parser, `re`'s parser, jsonschema's check, `str` and
pydantic's serialiser all recurse once per level; a value from outside may nest 64 levels
(as YAML may: HL007), a file or message that carries such values (a report, a
recording, an events line, an editor's message) 200 (`holodeck_lsp/nesting.py`). Past
that: one positioned diagnostic in `check` and the editor, one sentence naming the file in
`run`, `merge` and `compare`, a turn's or a call's error for what a model, an agent or a
tool hands back, and the server keeps serving.

One test per parser or walk: schema files, YAML files, regexes, model and service
replies, tool-call arguments, structured output, an agent's reply, a tool's result,
judge replies, response paths, data files, reports, recordings, events and the editor's
messages and settings.
"""

from __future__ import annotations

import ast
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from holodeck_lsp.models.tools import VectorstoreTool
from holodeck_lsp.nesting import MAX_DEPTH, MAX_FILE_DEPTH, TooDeep, check_depth, loads
from holodeck_lsp.runner.score.metrics.comparisons import path_leaf
from holodeck_lsp.runner.score.metrics.judge_replies import MalformedReply, parse_object
from holodeck_lsp.runner.tools.retrieval.ingest.records import load_records
from holodeck_lsp.runner.tools.retrieval.ingest.sources import SourceError
from holodeck_lsp.validation.yaml.incremental import load_yaml_incremental
from holodeck_lsp.validation.yaml.loader import load_yaml
from tests.conftest import REPO
from tests.runner.fake_model import FakeModelServer, Raw, Reply
from tests.runner.helpers import invoke, write
from tests.server.lsp_client import (
    THREAD_WORKER_SERVER,
    open_doc,
    push_capabilities,
    start,
    stop,
)
from tests.server.wire import Wire

THOUSANDS = "[" * 5000 + "]" * 5000  # past any parser's recursion
TOO_DEEP = f"lists and mappings nested more than {MAX_DEPTH} levels deep"
TOO_DEEP_FILE = f"lists and mappings nested more than {MAX_FILE_DEPTH} levels deep"


def nested(levels: int, leaf: Any = "x") -> Any:
    value = leaf
    for _ in range(levels):
        value = [value]
    return value


def properties(levels: int) -> dict[str, Any]:
    """A valid JSON Schema: an object of an object of ... (2 JSON levels each)."""
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"a": schema}}
    return schema


# -- check and the run's own check: files a YAML file names, YAML itself, regexes -----------

SCHEMA_AGENT = """
name: shaped
model: {provider: openai, name: gpt-4o}
instructions: {inline: Answer.}
response_format: schema.json
test_cases:
  - name: one
    input: hi
"""


@pytest.mark.parametrize(
    ("schema", "column"),
    [(THOUSANDS, 65), (json.dumps(properties(300)), 1249)],
    ids=["thousands of nested arrays", "hundreds of nested properties"],
)
def test_a_schema_file_nested_too_deep_is_one_warning_and_runs_refuse_it(
    tmp_path: Path, schema: str, column: int
) -> None:
    agent = write(tmp_path, {"agent.yaml": SCHEMA_AGENT, "schema.json": schema})
    message = (f"response_format schema file 'schema.json' holds {TOO_DEEP} (line 1, column "
               f"{column}) (response_format)")
    assert invoke("check", agent, "--format", "github") == (0, (
        f"::warning file={agent},line=4,col=18,endLine=4,endColumn=29,"
        f"title=HL611 response-format-not-json::{message}\n"), "")
    code, out, err = invoke("run", agent, "-q", "--agent", "nowhere:factory")
    assert (code, out) == (2, "")
    assert f"error HL611 {message}" in err and "RecursionError" not in err


def test_yaml_nested_too_deep_is_one_error_in_each_kind_of_file(tmp_path: Path) -> None:
    deep = json.dumps(nested(70))
    write(tmp_path, {
        "agent.yaml": f"name: a\nmodel: {{provider: openai, name: m}}\ninstructions: "
                      f"{{inline: hi}}\nmetadata: {deep}\ntest_cases_file: cases.yaml\n",
        "cases.yaml": f"- name: one\n  input: hi\n  metadata: {deep}\n",
        "config.yaml": f"providers: {deep}\n",
    })  # fmt: skip
    code, out, _ = invoke("check", tmp_path, "--format", "json")
    found = sorted(
        (Path(f["file"]).name, d["line"], d["code"])
        for f in json.loads(out)["files"] for d in f["diagnostics"] if d["code"] == "HL007"
    )
    assert (code, found) == (1, [("agent.yaml", 4, "HL007"), ("cases.yaml", 3, "HL007"),
                                 ("config.yaml", 1, "HL007")])


@pytest.mark.parametrize("levels", [61, 62, 63])
def test_a_suite_parsed_case_by_case_counts_the_levels_above_each_case(levels: int) -> None:
    # The editor cuts a large suite at its cases and parses each alone: a case's levels
    # under `test_cases:` count towards the limit as in a whole parse.
    cases = "".join(f"  - name: c{i}\n    input: hi\n" for i in range(300))
    text = (f"name: x\ntest_cases:\n{cases}  - name: deep\n    input: hi\n"
            f"    metadata: {json.dumps(nested(levels))}\n")
    whole, cut = load_yaml(text), load_yaml_incremental(text)
    assert [(p.span, p.message) for p in cut.problems] == [
        (p.span, p.message) for p in whole.problems]
    assert len(whole.problems) == (levels >= 62)


def test_a_regex_nested_too_deep_for_re_is_hl401(tmp_path: Path) -> None:
    pattern = "(" * 3000 + "a" + ")" * 3000
    agent = write(tmp_path, {"agent.yaml": f"""
        name: deep
        model: {{provider: openai, name: gpt-4o}}
        instructions: {{inline: Answer.}}
        test_cases:
          - name: one
            input: hi
            expected_tools:
              - name: lookup
                args: {{q: {{regex: "{pattern}"}}}}
        """})
    code, out, err = invoke("check", agent, "--format", "json")
    found = [(d["code"], d["message"]) for f in json.loads(out)["files"]
             for d in f["diagnostics"] if d["code"] == "HL401"]
    assert (code, found, err) == (1, [(
        "HL401", "regex does not compile: its groups nest too deeply for Python's re "
        '(test case "one": test_cases[0].expected_tools[0].args.q.regex)')], "")


# -- run: what a model service, an agent or a tool hands back -------------------------------

LIVE = """
name: live
model: {provider: openai, name: m, endpoint: ENDPOINT, api_key: sk-aaaaaaaaaaaaaaaaaaaa}
instructions: {inline: Answer.}
tools:
  - {name: lookup, type: function, description: A figure., file: tools.py, function: lookup}
EXTRA
test_cases:
  - name: first
    input: first
    expected_tools: [{name: lookup, args: {q: 1}}]
  - name: second
    input: second
    ground_truth: fine
    evaluations: [{metric: equality}]
"""
NO_CALL = "expected lookup(q=1): no call to 'lookup' found"
TOOLS = "def lookup(**kwargs):\n    value = 'x'\n    for _ in range(LEVELS):\n" \
        "        value = [value]\n    return value\n"


def _chat(**message: Any) -> Raw:
    return Raw(json.dumps({"id": "r", "object": "chat.completion", "model": "m", "choices": [
        {"index": 0, "message": {"role": "assistant", **message}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}))


def _run_live(tmp_path: Path, first: list[Any], extra: str = "", levels: int = 1,
              fine: str = "fine") -> dict[str, Any]:
    """Run the suite against a service whose answers to `first` are ``first``, and
    ``fine`` to `second`; the report. The second case always runs and passes."""
    answers: Iterator[Any] = iter(first)

    def script(path: str, body: dict[str, Any]) -> Any:
        return next(answers, None) if "first" in json.dumps(body) else Reply(fine)

    with FakeModelServer(script) as server:
        agent = write(tmp_path, {
            "agent.yaml": LIVE.replace("ENDPOINT", server.url).replace("EXTRA", extra),
            "tools.py": TOOLS.replace("LEVELS", str(levels))})
        code, _, err = invoke("run", agent, "-q", "-o", tmp_path / "report.json")
    assert code in (1, 3) and "RecursionError" not in err, err
    report: dict[str, Any] = json.loads((tmp_path / "report.json").read_text())
    assert [r["passed"] for r in report["results"]] == [False, True]
    return report


def test_a_service_reply_nested_too_deep_fails_its_turn_and_the_run_goes_on(
    tmp_path: Path,
) -> None:
    report = _run_live(tmp_path, [Raw(THOUSANDS)] * 3)
    assert report["results"][0]["errors"] == [
        f"backend error: the model service's reply holds {TOO_DEEP} (line 1, column 65)",
        NO_CALL]


def test_tool_call_arguments_nested_too_deep_are_that_calls_error(tmp_path: Path) -> None:
    report = _run_live(tmp_path, [_chat(content=None, tool_calls=[{
        "id": "c1", "type": "function",
        "function": {"name": "lookup", "arguments": '{"q": ' + THOUSANDS + "}"}}]),
        Reply("done")])
    assert [(i["args"], i["error"]) for i in report["results"][0]["tool_invocations"]] == [
        ({}, f"the arguments hold {TOO_DEEP} (line 1, column 70)")]


def test_a_tool_result_nested_too_deep_is_that_calls_error(tmp_path: Path) -> None:
    report = _run_live(tmp_path, [_chat(content=None, tool_calls=[{
        "id": "c1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}]),
        Reply("done")], levels=5000)
    [call] = report["results"][0]["tool_invocations"]
    assert (call["result"], call["error"]) == (None, "the tool's result holds " + TOO_DEEP_FILE)


def test_a_structured_reply_nested_too_deep_fails_its_turn(tmp_path: Path) -> None:
    report = _run_live(tmp_path, [Reply('{"a": ' + THOUSANDS + "}")] * 3,
                       extra="response_format: {type: [object, string]}", fine='"fine"')
    assert report["results"][0]["errors"] == [
        "Agent invocation error: OpenAI Agents run failed: ModelBehaviorError: Output holds "
        f"{TOO_DEEP} (line 1, column 70)", NO_CALL]


def test_an_agent_reply_nested_too_deep_fails_its_turn(tmp_path: Path) -> None:
    agent = write(tmp_path, {
        "agent.yaml": LIVE.replace("ENDPOINT", "http://127.0.0.1:9/v1").replace("EXTRA", ""),
        "tools.py": TOOLS.replace("LEVELS", "1"),
        "deep_agent.py": """
            def factory():
                class Agent:
                    def send(self, message):
                        value = "x"
                        for _ in range(5000 if message == "first" else 0):
                            value = [value]
                        calls = [{"name": "lookup", "args": {"q": value}}]
                        return {"text": "fine", "tool_calls": calls}
                return Agent()
            """})
    code, _, err = invoke("run", agent, "-q", "--agent", "deep_agent:factory",
                          "-o", tmp_path / "report.json")
    report = json.loads((tmp_path / "report.json").read_text())
    assert (code, [r["passed"] for r in report["results"]]) == (1, [False, True]), err
    assert report["results"][0]["errors"] == [
        f"Agent invocation error: send() returned {TOO_DEEP} "
        "(at ['tool_calls'][0]['args']['q'][0][0]...)", NO_CALL]


def test_judge_replies_response_paths_and_data_files_refuse_what_nests_too_deep(
    tmp_path: Path,
) -> None:
    with pytest.raises(MalformedReply, match="the reply is not a JSON object"):
        parse_object('{"score": ' + THOUSANDS + "}")
    leaf, why = path_leaf(THOUSANDS, "a.b")
    assert (leaf, why.split("; got: ")[0]) == (None, (  # type: ignore[union-attr]
        f"response_path='a.b' but response is not JSON (TooDeep: {TOO_DEEP} (line 1, "
        "column 65))"))
    data = tmp_path / "records.json"
    data.write_text(THOUSANDS)
    tool = VectorstoreTool.model_validate({"name": "t", "description": "d", "source": "x"})
    with pytest.raises(SourceError) as refused:
        list(load_records(data, tool))
    assert str(refused.value) == f"{data}: not valid JSON ({TOO_DEEP} (line 1, column 65))"


def test_the_shared_reader_says_where_and_never_recurses() -> None:
    with pytest.raises(TooDeep) as text:
        loads('{"a":\n  ' + "[" * 70 + "]" * 70 + "}")
    assert (text.value.line, text.value.column) == (2, 66)
    assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH) == nested(MAX_DEPTH - 1, [])
    loop: list[Any] = []
    loop.append(loop)  # a value that contains itself nests without end
    with pytest.raises(TooDeep) as value:
        check_depth({"a": loop})
    assert value.value.path == ("a", *[0] * (MAX_DEPTH - 1))


# -- files of ours read back: reports and recordings ----------------------------------------

REPORT = REPO / "tests" / "data" / "holodeck" / "holodeck-report.json"


def test_a_report_nested_past_the_limit_is_refused_by_every_reader(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    shutil.copytree(REPORT.parent, suite)
    data = json.loads(REPORT.read_text())
    data["results"][0]["tool_invocations"][0]["args"]["metric"] = nested(300)
    deep = tmp_path / "deep.json"
    deep.write_text(json.dumps(data))
    agent = suite / "agent.yaml"
    for args in (
        ["compare", deep, REPORT], ["merge", deep, "-o", tmp_path / "merged.json"],
        ["run", agent, "--from-report", deep, "--events", tmp_path / "events.jsonl"],
        ["run", agent, "--baseline", deep, "--agent", "nowhere:factory"],
    ):
        code, out, err = invoke(*args)
        assert (code, out) == (2, "")
        assert err.startswith(f"error: {deep} is not a test report: the document: Invalid "
                              "JSON: recursion limit exceeded"), err
        assert len(err.splitlines()) == 1


def test_a_recording_nested_too_deep_is_refused_naming_its_line(tmp_path: Path) -> None:
    agent = write(tmp_path, {
        "agent.yaml": LIVE.replace("ENDPOINT", "http://127.0.0.1:9/v1").replace("EXTRA", ""),
        "tools.py": TOOLS.replace("LEVELS", "1")})
    recording = tmp_path / "replay.jsonl"
    recording.write_text('{"fingerprint": "x", "reply": ' + THOUSANDS + "}\n")
    assert invoke("run", agent, "-q", "--replay", recording) == (2, "", (
        f"error: {recording}:1: not a recorded exchange ({TOO_DEEP_FILE} (line 1, column "
        "230))\n"))


# -- the server: the editor's messages and settings, and a run's events ---------------------


async def test_a_message_too_deep_for_the_json_parser_is_answered_and_the_server_serves(
    tmp_path: Path,
) -> None:
    log = tmp_path / "server.log"
    wire = await Wire.start(tmp_path / "home", stderr=log, command=THREAD_WORKER_SERVER)
    try:
        # First (read while the server loads, then by pygls), then once it serves.
        for _ in range(2):
            wire.orphans.clear()
            wire.send(('{"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": '
                       + THOUSANDS + "}").encode())
            answer = await wire.until(lambda: wire.orphans and wire.orphans[0])
            assert answer["error"] == {"code": -32700, "message": "Parse error: lists and "
                                       "mappings nested too deep for the JSON parser"}
            if not wire.responses:
                await wire.initialize(tmp_path)
        hover = await wire.call("textDocument/hover", {
            "textDocument": {"uri": (tmp_path / "none.yaml").as_uri()},
            "position": {"line": 0, "character": 0}})
        assert hover.get("error") is None
    finally:
        assert await wire.close() == 0
    assert 7 not in wire.answered


SETTINGS_AGENT = """name: bot
model:
  provider: openai
  name: gpt-4o
instructions:
  inline: hi
test_cases:
  - name: one
    input: hi
    bogus: 1
"""


async def test_settings_nested_too_deep_are_ignored_with_a_logged_message(
    tmp_path: Path,
) -> None:
    deep = {"severity": {"HL101": "off"}, "files": nested(100, {})}
    client = await start(tmp_path, push_capabilities(), options=deep,
                         command=THREAD_WORKER_SERVER)
    try:
        doc = open_doc(client, tmp_path / "bot.agent.yaml", SETTINGS_AGENT)
        assert [d.code for d in await client.diagnostics_of(doc)] == ["HL101"]  # not off
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
            settings={"holodeck": deep}))
        expected = f"the settings hold {TOO_DEEP}: all ignored; using the default"
        shown = [f"holodeck settings ({source}): {expected}"
                 for source in ("initializationOptions", "workspace/didChangeConfiguration")]
        await client.until(lambda: [m.message for m in client.log_messages
                                    if m.message.startswith("holodeck settings")] == shown)
    finally:
        await stop(client)


async def test_a_report_nested_deep_reaches_the_editor_through_the_runs_events(
    tmp_path: Path,
) -> None:
    # `holodeck.showReport` reads a report through `run --from-report --events -`: the
    # events carry the report's arguments, 190 levels deep here.
    suite = tmp_path / "suite"
    shutil.copytree(REPORT.parent, suite)
    data = json.loads(REPORT.read_text())
    for invocations in (data["results"][0]["tool_invocations"],
                        data["results"][0]["turns"][0]["tool_invocations"]):
        invocations[0]["args"]["metric"] = nested(185)
    (suite / "report.json").write_text(json.dumps(data))
    client = await start(suite, push_capabilities(), options={"workspaceTrusted": True},
                         command=THREAD_WORKER_SERVER)
    try:
        doc = open_doc(client, suite / "agent.yaml")
        await client.diagnostics_of(doc)
        answer = await client.workspace_execute_command_async(
            types.ExecuteCommandParams("holodeck.showReport", [doc, "report.json"]))
        assert answer == {"exitCode": 1, "passed": 1, "failed": 1}
    finally:
        await stop(client)


# -- one reader ------------------------------------------------------------------------------

PACKAGE = REPO / "holodeck_lsp"
# JSON that only our own child processes write (their protocols), read as it is.
OWN_PROTOCOLS = {"graders/isolated.py", "runner/score/regex_child.py",
                 "runner/score/regex_limit.py"}


def test_json_from_outside_is_read_through_the_shared_reader_only() -> None:
    # `json.load(s)` and httpx's `.json()` recurse without a limit: everything else reads
    # through holodeck_lsp/nesting.py (pydantic's `model_validate_json`, which reports use,
    # stops at MAX_FILE_DEPTH itself).
    found = []
    for file in sorted(PACKAGE.rglob("*.py")):
        name = file.relative_to(PACKAGE).as_posix()
        if name == "nesting.py" or name in OWN_PROTOCOLS:
            continue
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            owner = node.func.value
            module = owner.id if isinstance(owner, ast.Name) else None
            if (module == "json" and node.func.attr in ("load", "loads")) or (
                node.func.attr == "json" and not node.args
            ):
                found.append(f"{name}:{node.lineno}")
    assert found == []
