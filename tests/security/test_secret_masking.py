"""Issue 19, item 6: a secret reaches no artefact of a run, in any encoding, whole or in
pieces, whatever told the runner it is a secret: the API key (substituted from `${VAR}`),
the password or a query token of the endpoint URL, an MCP server's `env:` or `env_file`.

The fake model service puts the secret everywhere a service can: in replies, tool-call
arguments, error bodies (echoing the request's headers and path), a reply without
choices, and cuts at the 300-character limits fall inside it. Every artefact (JSON,
JUnit, Markdown and HTML reports, the recording, the events, stdout, stderr) is then
searched for the secret as written, JSON-, HTML-, XML-, Markdown- and percent-encoded,
and for every 12-character piece of each of these.
"""

from __future__ import annotations

import html
import json
import os
import re
import stat
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus

import pytest

from holodeck_lsp.runner.services.http_client import RetryPolicy
from tests.runner.conftest import _forget_user_code  # noqa: F401 (autouse: user code unloaded)
from tests.runner.fake_model import (
    Action,
    Drop,
    EchoHeaders,
    FakeModelServer,
    Raw,
    Reply,
    Status,
    last_user_text,
    tool_results,
)
from tests.runner.helpers import invoke, write

SECRET = "Qz7&vK<p9>Lm\"Wx'Rt|Ny4&Hb<Jc"
PIECE = 12
HERE = Path(__file__).resolve().parent
SDK_SERVER = HERE.parent / "runner" / "mcp" / "sdk_server.py"


def _xml_forms(secret: str) -> list[str]:
    """The secret as ElementTree writes it in an attribute and in text."""
    attribute = ET.tostring(ET.Element("x", a=secret), "unicode")
    element = ET.Element("x")
    element.text = secret
    text = ET.tostring(element, "unicode")
    return [attribute[len('<x a="') : -len('" />')], text[len("<x>") : -len("</x>")]]


def encodings(secret: str) -> dict[str, str]:
    forms = {
        "raw": secret,
        "JSON": json.dumps(secret)[1:-1],
        "JSON (ASCII)": json.dumps(secret, ensure_ascii=True)[1:-1],
        "HTML": html.escape(secret),
        "HTML (no quotes)": html.escape(secret, quote=False),
        "Markdown": re.sub(r"([!-/:-@\[-`{-~])", r"\\\1", secret),
        "Markdown table": secret.replace("|", "\\|"),
        "percent": quote(secret, safe=""),
        "percent (form)": quote_plus(secret, safe=""),
    }
    for i, form in enumerate(_xml_forms(secret)):
        forms[f"XML {i}"] = form
    return forms


def leaks(artefacts: dict[str, str], secret: str = SECRET) -> list[tuple[str, str, str]]:
    """(artefact, encoding, what was found) for the secret and each 12-character piece."""
    found = []
    for name, text in artefacts.items():
        for encoding, form in encodings(secret).items():
            pieces = {form[i : i + PIECE] for i in range(len(form) - PIECE + 1)}
            for piece in sorted(pieces):
                if piece in text:
                    found.append((name, encoding, piece))
    return found


def script(path: str, body: dict[str, Any]) -> Action:
    """What the service says to each test case: the secret, every way it can."""
    text = last_user_text(body)
    if text == "echo":
        return Reply(f"Your key is {SECRET}; you asked for {path}")
    if text == "tool":
        if tool_results(body):
            return Reply("relayed")
        return Reply(tool_calls=[("relay", {"text": "t" * 270 + SECRET})])  # HTML cuts at 300
    if text == "headers":
        return EchoHeaders(400)
    if text == "refuse":
        return Status(400, None, "y" * 280 + SECRET)  # the error excerpt is cut at 300
    if text == "no choices":
        return Raw(json.dumps({"padding": "x" * 256, "key": SECRET}))  # cut at 300 too
    if text == "drop":
        return Drop()  # the connection error names the endpoint
    return Reply(f"no script for {text!r}")


CASES = """
test_cases:
  - name: reply
    turns:
      - input: echo
        ground_truth: nothing
        evaluations: [{metric: equality}]
  - name: tool call
    turns: [{input: tool}]
  - name: echoed headers
    turns: [{input: headers}]
  - name: refused
    turns: [{input: refuse}]
  - name: no choices
    turns: [{input: no choices}]
  - name: dropped
    turns: [{input: drop}]
"""

RELAY = "def relay(text: str) -> str:\n    return 'relayed ' + text\n"


def suite(folder: Path, endpoint: str, api_key: str, tools: str = "") -> Path:
    relay = (
        "  - {name: relay, type: function, description: Relays., file: relay.py, function: relay}\n"
    )
    text = (
        f"name: leaky\nmodel:\n  provider: openai\n  name: gpt-test\n  endpoint: '{endpoint}'\n"
        f"  api_key: {api_key}\ninstructions:\n  inline: Be brief.\n"
        f"tools:\n{relay}{tools}" + textwrap.dedent(CASES)
    )
    return write(folder, {"agent.yaml": text, "relay.py": RELAY})


OUTPUTS = ("report.json", "report.xml", "report.md", "report.html")


def run_all(agent: Path, *extra: str) -> tuple[int, dict[str, str]]:
    """`run` writing every artefact; (exit code, artefact name -> text)."""
    folder = agent.parent
    outputs = [a for name in OUTPUTS for a in ("-o", str(folder / name))]
    recording, events = folder / "recording.jsonl", folder / "events.jsonl"
    code, out, err = invoke(
        "run", agent, "--no-user-config", "--llm-timeout", "10", "--record", recording,
        "--events", events, *outputs, *extra,
    )  # fmt: skip
    files = [*OUTPUTS, recording.name, events.name]
    texts = {name: (folder / name).read_text() for name in files if (folder / name).exists()}
    return code, {**texts, "stdout": out, "stderr": err}


@pytest.fixture(autouse=True)
def _no_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(RetryPolicy, "delay", lambda self, attempt, retry_after: 0.0)


@pytest.mark.parametrize("role", ["api key", "endpoint password", "endpoint token"])
def test_the_secret_reaches_no_artefact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, role: str
) -> None:
    # Named like nothing secret: the runner knows it is one only from where it is used.
    monkeypatch.setenv("HL_LEAKY_VALUE", SECRET)
    api_key = "${HL_LEAKY_VALUE}" if role == "api key" else "sk-innocuous-000"
    with FakeModelServer(script) as server:
        endpoint = server.url
        if role == "endpoint password":
            endpoint = endpoint.replace("http://", f"http://holo:{quote(SECRET, safe='')}@")
        if role == "endpoint token":
            endpoint += f"?token={quote(SECRET, safe='')}"
        code, artefacts = run_all(suite(tmp_path, endpoint, api_key))
        paths = {path for path, _, _ in server.requests}
    assert code == 3, artefacts["stderr"]
    assert set(artefacts) == {*OUTPUTS, "recording.jsonl", "events.jsonl", "stdout", "stderr"}
    assert "[REDACTED]" in artefacts["report.json"]
    assert leaks(artefacts) == []
    if role == "endpoint token":  # the path goes before the query, not after it
        assert paths == {f"/v1/chat/completions?token={quote(SECRET, safe='')}"}


def test_endpoints_are_printed_without_their_credentials(tmp_path: Path) -> None:
    with FakeModelServer(script) as server:
        endpoint = server.url.replace("http://", "http://holo:hunter2hunter2@") + "?sig=abcdef123"
        path = suite(tmp_path, endpoint, "sk-innocuous-000")
        (tmp_path / "agent.yaml").write_text(
            path.read_text().split("test_cases:")[0] + "test_cases:\n  - input: drop\n"
        )
        code, artefacts = run_all(path)
    error = json.loads(artefacts["report.json"])["results"][0]["errors"][0]
    shown = server.url.replace("http://", "http://[REDACTED]@") + "/chat/completions?sig=[REDACTED]"
    assert code == 3, artefacts["stderr"]
    assert error.endswith(f"({shown}) (gave up after 5 attempts)"), error


def fake_node(folder: Path, body: str) -> None:
    """A `node` first on PATH: MCP servers of `command: node` run this script instead."""
    binary = folder / "bin" / "node"
    binary.parent.mkdir()
    binary.write_text(f"#!/bin/sh\n{body}\n")
    binary.chmod(binary.stat().st_mode | stat.S_IXUSR)


def mcp_tool(role: str) -> str:
    """An MCP server whose `env:` or `env_file` holds the secret as SERVICE_SETTING (named
    like nothing secret: masked for its shape, a generated key's), and the prefix of its
    tools' names, which is no secret."""
    env = {"MCP_PYTHON": sys.executable, "MCP_SERVER_NAME": "facts_"}
    if role == "env":
        env["SERVICE_SETTING"] = SECRET
    lines = [
        "  - name: settings",
        "    type: mcp",
        "    description: Reads its settings.",
        "    command: node",
        f"    env: {json.dumps(env)}",
        *(["    env_file: server.env"] if role == "env_file" else []),
    ]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("role", ["env", "env_file"])
def test_an_mcp_servers_environment_is_masked_in_its_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, role: str
) -> None:
    fake_node(tmp_path, 'echo "starting with $SERVICE_SETTING" >&2\nexit 3')
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:{os.environ['PATH']}")
    write(tmp_path, {"server.env": f"# the server's settings\nSERVICE_SETTING={SECRET}\n"})
    with FakeModelServer(script) as server:
        path = suite(tmp_path, server.url, "sk-innocuous-000", mcp_tool(role))
        code, artefacts = run_all(path)
    assert code == 2, artefacts["stderr"]
    assert artefacts["stderr"].splitlines()[1:3] == [
        "  its stderr ended with:",
        "    starting with [REDACTED]",
    ]
    assert leaks(artefacts) == []


@pytest.mark.slow  # starts the SDK's test server: a few seconds
@pytest.mark.parametrize("role", ["env", "env_file"])
def test_an_mcp_servers_environment_is_masked_in_every_artefact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, role: str
) -> None:
    fake_node(tmp_path, f'exec "$MCP_PYTHON" {json.dumps(str(SDK_SERVER))} stdio')
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:{os.environ['PATH']}")
    write(tmp_path, {"server.env": f"SERVICE_SETTING={SECRET}\n"})

    def calling(path: str, body: dict[str, Any]) -> Action:
        if last_user_text(body) != "tool":
            return script(path, body)
        if tool_results(body):
            return Reply(f"the setting is {tool_results(body)[0]}")
        return Reply(tool_calls=[("facts_env", {"name": "SERVICE_SETTING"})])

    with FakeModelServer(calling) as server:
        code, artefacts = run_all(suite(tmp_path, server.url, "sk-innocuous-000", mcp_tool(role)))
    report = json.loads(artefacts["report.json"])
    assert code == 3, artefacts["stderr"]
    invocation = report["results"][1]["turns"][0]["tool_invocations"][0]
    assert (invocation["name"], invocation["result"]) == ("facts_env", "[REDACTED]")
    assert leaks(artefacts) == []


# A token no shape gives away (no capital, no digit): only where it comes from says it is
# one. Its `& < > |` test the encodings.
TOKEN = "horse&battery<staple>|correct"
TOOL = "archive_lookup"
FACTS_SERVER = HERE / "facts_server.py"


def _facts_tool(env: dict[str, str], env_file: bool = False) -> str:
    # LOOKUP_KEY is named like a credential, but its value is a name the agent file writes
    # (`expected_tools`), which the report carries: the name wins.
    env = {"MCP_PYTHON": sys.executable, "FACTS_TOOL": TOOL, "LOOKUP_KEY": TOOL, **env}
    lines = [
        "  - name: facts",
        "    type: mcp",
        "    description: Looks facts up.",
        "    command: node",
        f"    env: {json.dumps(env)}",
        *(["    env_file: facts.env"] if env_file else []),
    ]
    return "\n".join(lines) + "\n"


FACTS_CASES = f"""
test_cases:
  - name: facts
    input: What are your credentials?
    expected_tools: [{TOOL}]
"""


@pytest.mark.parametrize(
    "role",
    ["credential-named key", "env_file", "credential-named variable", "listed name"],
)
def test_an_mcp_servers_token_is_masked_and_its_tool_name_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, role: str
) -> None:
    """Issue 29, item 6: the server's environment holds a token and a tool's name. The token
    is masked in every artefact, in every encoding; the tool's name, which every report
    carries, is not (every value there used to be masked, and reports named the tool
    `[REDACTED]`)."""
    fake_node(tmp_path, f'exec "$MCP_PYTHON" {json.dumps(str(FACTS_SERVER))}')
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:{os.environ['PATH']}")
    env = {"SERVICE_TOKEN": TOKEN}
    if role == "env_file":
        env = {}
        write(tmp_path, {"facts.env": f"SERVICE_TOKEN={TOKEN}\n"})
    if role == "credential-named variable":
        monkeypatch.setenv("HL_FACTS_API_TOKEN", TOKEN)
        env = {"SERVICE_TOKEN": "${HL_FACTS_API_TOKEN}", "TOKEN_COPY": "${HL_FACTS_API_TOKEN}"}
    if role == "listed name":  # a name that says nothing: the user lists it
        monkeypatch.setenv("HOLODECK_LSP_SECRET_NAMES", "OTHER, SERVICE_TOKEN")
        env = {"SERVICE_TOKEN": TOKEN}
    tools = _facts_tool(env, env_file=role == "env_file")

    def script(_path: str, body: dict[str, Any]) -> Action:
        if tool_results(body):
            return Reply(tool_results(body)[0])
        return Reply(tool_calls=[(TOOL, {"topic": "credentials"})])

    with FakeModelServer(script) as server:
        agent = suite(tmp_path, server.url, "sk-innocuous-000", tools)
        text = agent.read_text().split("test_cases:")[0]
        agent.write_text(text + textwrap.dedent(FACTS_CASES).lstrip())
        code, artefacts = run_all(agent)
    assert code == 0, artefacts["stderr"]
    report = json.loads(artefacts["report.json"])
    result = report["results"][0]
    assert result["tool_calls"] == [TOOL]
    assert result["tool_invocations"][0]["name"] == TOOL
    assert result["agent_response"] == f"{TOOL} says: [REDACTED]"
    assert leaks(artefacts, TOKEN) == []
    for name in ("report.json", "report.md", "report.html", "recording.jsonl", "events.jsonl"):
        assert TOOL in artefacts[name], name
