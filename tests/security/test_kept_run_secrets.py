"""A run kept in the history (`results/<slug>/`) holds no secret, in any encoding, whole or
in pieces: not an `api_key` written in the file or substituted from `${VAR}`, not an MCP
server's `env:` or `headers:` value, not a URL's password or credential query value. And
`history` shows none that a run kept by `holodeck test` (which redacts only fields named
`api_key`, `password`, `secret`) holds in the clear, in any of its formats."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.runner.helpers import ECHO, invoke, write
from tests.security.test_secret_masking import SECRET, leaks

AGENT = """\
name: leaky
model:
  provider: openai
  name: gpt-test
  endpoint: {endpoint}
  api_key: {api_key}
instructions: {{inline: Be brief.}}
tools:
  - name: remote
    type: mcp
    description: Remote.
    transport: http
    url: {url}
    headers: {{X-Custom: {header}}}
  - name: local
    type: mcp
    description: Local.
    command: node
    env: {{SERVICE_SETTING: {env}}}
test_cases:
  - name: one
    input: hello
"""
PLAIN = {
    "endpoint": '"https://example.invalid/v1"',
    "api_key": '"sk-innocuous-0000"',
    "url": '"https://mcp.invalid/mcp"',
    "header": '"harmless-0000"',
    "env": '"harmless-1111"',
}
ENCODED = quote(SECRET, safe="")
ROLES = {
    "api_key written": {"api_key": json.dumps(SECRET)},
    "api_key from ${VAR}": {"api_key": "${HL_KEPT_VALUE}"},
    "MCP env from ${VAR}": {"env": "${HL_KEPT_VALUE}"},
    "MCP header written": {"header": json.dumps(SECRET)},
    "endpoint password": {"endpoint": json.dumps(f"https://holo:{ENCODED}@example.invalid/v1")},
    "MCP URL token": {"url": json.dumps(f"https://mcp.invalid/mcp?token={ENCODED}")},
}


@pytest.mark.parametrize("role", list(ROLES))
def test_a_kept_run_holds_no_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, role: str
) -> None:
    # Named like nothing secret: only where it is used tells the runner it is one.
    monkeypatch.setenv("HL_KEPT_VALUE", SECRET)
    agent = write(tmp_path, {"agent.yaml": AGENT.format(**{**PLAIN, **ROLES[role]}),
                             "echo.py": ECHO})  # fmt: skip
    code, out, err = invoke("run", agent, "--agent", "echo:factory", "--no-user-config")
    assert code == 0, err
    (kept,) = (tmp_path / "results" / "leaky").iterdir()
    text = kept.read_text()
    assert "[REDACTED]" in text or '"***"' in text
    assert leaks({"kept run": text, "stdout": out, "stderr": err}) == []


def test_history_shows_no_secret_a_run_kept_by_holodeck_test_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    agent = write(tmp_path, {"agent.yaml": AGENT.format(**PLAIN), "echo.py": ECHO})
    assert invoke("run", agent, "--agent", "echo:factory", "-q")[0] == 0
    (kept,) = (tmp_path / "results" / "leaky").iterdir()
    # As `holodeck test` keeps it: an MCP server's environment and headers in the clear,
    # and a URL with its credentials.
    run = json.loads(kept.read_text())
    remote, local = run["metadata"]["agent_config"]["tools"]
    local["env"]["SERVICE_SETTING"] = SECRET
    remote["headers"]["X-Custom"] = SECRET
    remote["url"] = f"https://holo:{ENCODED}@mcp.invalid/mcp"
    kept.write_text(json.dumps(run))
    artefacts = {}
    for form in ("text", "json", "markdown", "html"):
        code, out, err = invoke("history", agent, "--format", form)
        assert code == 0, err
        artefacts[form] = out + err
    assert "SERVICE_SETTING" in artefacts["html"]  # the configuration is there, masked
    assert leaks(artefacts) == []
