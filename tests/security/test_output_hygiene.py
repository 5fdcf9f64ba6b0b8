"""Issue 19, item 7: output that attacks its reader.

A test-case name or a reply holding escape sequences reaches a terminal as visible
escapes (`\\x1b`), never as a window title or a clipboard write (OSC 0, OSC 52); a reply
full of control characters still gives well-formed JUnit XML; model text in the Markdown
report and in the editor's hover is code, so no image loads and no link is live (both are
parsed here as a CommonMark renderer parses them).
"""

from __future__ import annotations

import asyncio
import json
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from markdown_it import MarkdownIt
from markdown_it.token import Token

from tests.runner.fake_model import Action, FakeModelServer, Reply, last_user_text
from tests.runner.helpers import invoke, write
from tests.server.lsp_client import (
    THREAD_WORKER_SERVER,
    Client,
    open_doc,
    pull_capabilities,
    start,
    stop,
)
from tests.server.shared_servers import SHARES_SERVERS, LendPush

TITLE = "\x1b]0;pwned\x07"  # OSC 0: the terminal's window title
CLIPBOARD = "\x1b]52;c;cHduZWQ=\x07"  # OSC 52: the clipboard
TERMINAL_CONTROLS = ("\x1b", "\x07", "\x9b", "\u202e", "\ud800")

CHECKED = """\
name: hostile
model: {provider: openai, name: gpt-4o}
instructions: {inline: Answer.}
test_cases:
  - name: "\\e]0;pwned\\a"
    input: hi
    evaluations: [{metric: nonsense}]
  - name: "\\e]52;c;cHduZWQ=\\a"
    input: hi
    evaluations: [{metric: nonsense}]
"""

TEXT_OUTPUT = """\
{agent}:7:28: error HL104 unknown value 'nonsense'; expected one of groundedness, relevance, \
coherence, fluency, bleu, rouge, meteor, equality, numeric (test case "\\x1b]0;pwned\\x07": \
test_cases[0].evaluations[0].metric)
      evaluations: [{{metric: nonsense}}]
                             ^^^^^^^^
{agent}:10:28: error HL104 unknown value 'nonsense'; expected one of groundedness, relevance, \
coherence, fluency, bleu, rouge, meteor, equality, numeric (test case \
"\\x1b]52;c;cHduZWQ=\\x07": test_cases[1].evaluations[0].metric)
      evaluations: [{{metric: nonsense}}]
                             ^^^^^^^^
{raw}:2:11: error HL001 YAML does not allow the character U+001B here
    - name: \\x1b]0;pwned\\x07
            ^^^^
{raw}:2:20: error HL001 YAML does not allow the character U+0007 here
    - name: \\x1b]0;pwned\\x07
                        ^^^^
2 file(s) checked: 4 error(s), 0 warning(s)
"""


def test_check_text_format_shows_escape_sequences_instead_of_obeying_them(tmp_path: Path) -> None:
    agent = write(tmp_path, {"agent.yaml": CHECKED})
    raw = tmp_path / "raw.yaml"  # the control characters written as they are
    raw.write_text(f"test_cases:\n  - name: {TITLE}\n    input: hi\n", encoding="utf-8")
    code, out, err = invoke("check", agent, raw)
    assert (code, err) == (1, "")
    assert out == TEXT_OUTPUT.format(agent=agent, raw=raw)
    assert not any(c in out for c in TERMINAL_CONTROLS)


def test_check_github_format_shows_escape_sequences_instead_of_obeying_them(
    tmp_path: Path,
) -> None:
    agent = write(tmp_path, {"agent.yaml": CHECKED})
    code, out, _ = invoke("check", "--format", "github", agent)
    file = str(agent).replace(":", "%3A")
    head = (
        f"::error file={file},line={{line}},col=28,endLine={{line}},endColumn=36,"
        "title=HL104 unknown-value::unknown value 'nonsense'; expected one of groundedness, "
        "relevance, coherence, fluency, bleu, rouge, meteor, equality, numeric "
    )
    assert code == 1
    assert out.splitlines() == [
        head.format(line=7)
        + '(test case "\\x1b]0;pwned\\x07": test_cases[0].evaluations[0].metric)',
        head.format(line=10)
        + '(test case "\\x1b]52;c;cHduZWQ=\\x07": test_cases[1].evaluations[0].metric)',
    ]
    assert not any(c in out for c in TERMINAL_CONTROLS)


# Every C0 character but tab, newline and carriage return, DEL, two C1 characters, the
# right-to-left override, the two non-characters XML forbids and a lone surrogate (which
# the service sends as the JSON escape `\ud800`; UTF-8 cannot hold it).
C0 = "".join(chr(c) for c in range(32) if c not in (9, 10, 13))
CONTROLS = C0 + "\x7f\x85\x9b\u202e\ufffe\uffff\ud800"
ATTACK = "![x](http://evil/x.png) [l](http://evil) <img src=x> `t` |"  # fits a table cell


def hostile(folder: Path, url: str) -> Path:
    """Two cases named with OSC sequences: one gets a reply full of control characters,
    the other a reply full of Markdown."""
    text = textwrap.dedent(f"""\
        name: hostile
        model: {{provider: openai, name: gpt-test, endpoint: '{url}'}}
        instructions: {{inline: Answer.}}
        test_cases:
          - name: "\\e]0;pwned\\a"
            turns:
              - input: controls
                ground_truth: plain
                evaluations: [{{metric: equality}}]
          - name: "\\e]52;c;cHduZWQ=\\a"
            turns:
              - input: markdown
        """)
    return write(folder, {"agent.yaml": text})


def script(path: str, body: dict[str, Any]) -> Action:
    return Reply(CONTROLS if last_user_text(body) == "controls" else ATTACK)


def test_run_shows_escape_sequences_instead_of_obeying_them(tmp_path: Path) -> None:
    with FakeModelServer(script) as server:
        agent = hostile(tmp_path, server.url)
        code, out, err = invoke("run", agent, "--no-user-config")
        events = invoke("run", agent, "--no-user-config", "-q", "--events", "-")[1]
    assert code == 1, err
    assert err.splitlines()[1].startswith("FAIL  \\x1b]0;pwned\\x07 (1 turn, ")
    assert err.splitlines()[2].startswith("PASS  \\x1b]52;c;cHduZWQ=\\x07 (1 turn, ")
    for text in (out, err, events):
        assert not any(c in text for c in TERMINAL_CONTROLS)
    replies = [json.loads(line).get("response") for line in events.splitlines()]
    assert CONTROLS in replies  # the events keep the text, as JSON escapes


def test_junit_stays_well_formed_with_control_characters(tmp_path: Path) -> None:
    xml = tmp_path / "report.xml"
    others = [tmp_path / f"report.{ext}" for ext in ("json", "md", "html")]
    outputs = [a for path in (xml, *others) for a in ("-o", path)]
    with FakeModelServer(script) as server:
        code, _, err = invoke("run", hostile(tmp_path, server.url), "-q", *outputs)
    assert code == 1, err
    assert all(path.is_file() for path in others)  # the lone surrogate stopped none of them
    root = ET.parse(xml).getroot()  # expat: a strict XML 1.0 parser
    assert [suite.get("name") for suite in root] == [
        "\\x1b]0;pwned\\x07",
        "\\x1b]52;c;cHduZWQ=\\x07",
    ]
    shown = root.findtext("testsuite/testcase/system-out")
    assert shown == (
        "\\x00\\x01\\x02\\x03\\x04\\x05\\x06\\x07\\x08\\x0b\\x0c\\x0e\\x0f\\x10\\x11\\x12\\x13"
        "\\x14\\x15\\x16\\x17\\x18\\x19\\x1a\\x1b\\x1c\\x1d\\x1e\\x1f\x7f\x85\x9b\u202e"
        "\\ufffe\\uffff\\ud800"
    )


def rendered(markdown: str) -> list[Token]:
    """Every token a CommonMark renderer (with GFM tables) makes of ``markdown``."""
    tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
    flat: list[Token] = []
    while tokens:
        token = tokens.pop(0)
        flat.append(token)
        tokens[:0] = token.children or []
    return flat


def live(tokens: list[Token]) -> list[str]:
    """What a reader's renderer would fetch or follow: images, links, raw HTML."""
    kinds = ("image", "link_open", "html_inline", "html_block")
    return [f"{t.type}: {t.content}" for t in tokens if t.type in kinds]


def test_markdown_report_shows_model_text_as_code(tmp_path: Path) -> None:
    report = tmp_path / "report.md"
    with FakeModelServer(script) as server:
        code, _, err = invoke("run", hostile(tmp_path, server.url), "-q", "-o", report)
    assert code == 1, err
    tokens = rendered(report.read_text())
    assert live(tokens) == []
    code_spans = [t.content for t in tokens if t.type == "code_inline"]
    assert ATTACK in code_spans  # the reply, whole, as code (`|` unescaped in the cell)
    assert "\\x1b]52;c;cHduZWQ=\\x07" in code_spans  # the case's name


async def _report_hover(client: Client, agent: Path) -> types.Hover | None:
    """The hover of the case's `input` once the suite's report is shown (`report.json`)."""
    doc = open_doc(client, agent)
    answer = await client.workspace_execute_command_async(
        types.ExecuteCommandParams("holodeck.showReport", [doc, "report.json"])
    )
    assert answer == {"exitCode": 1, "passed": 1, "failed": 1}
    line = agent.read_text().splitlines().index("      - input: markdown")
    return await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(doc), types.Position(line, 10))
    )


@SHARES_SERVERS
@pytest.mark.parametrize("markdown", [True, False])
async def test_hover_shows_model_text_as_code(
    tmp_path: Path, markdown: bool, lend_push: LendPush
) -> None:
    folder = tmp_path / "project"
    report = folder / "report.json"
    with FakeModelServer(script) as server:
        agent = hostile(folder, server.url)
        code, _, err = await asyncio.to_thread(
            invoke, "run", agent, "-q", "--no-user-config", "--no-history", "-o", report
        )
    assert code == 1, err
    if markdown:  # the session's server (Neovim's capabilities, Markdown first)
        async with lend_push(folder, {"workspaceTrusted": True}) as client:
            hover = await _report_hover(client, agent)
    else:  # a client that shows plain text only
        capabilities = pull_capabilities()
        assert capabilities.text_document is not None
        capabilities.text_document.hover = types.HoverClientCapabilities(
            content_format=[types.MarkupKind.PlainText]
        )
        client = await start(folder, capabilities, options={"workspaceTrusted": True},
                             command=THREAD_WORKER_SERVER)
        try:
            hover = await _report_hover(client, agent)
        finally:
            await stop(client)
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    text = hover.contents.value
    if markdown:
        last_run = text.split("\n\n---\n\n")[-1]  # after the field's documentation
        assert last_run.startswith("**Last run: PASS** turn 0 (")
        tokens = rendered(last_run)
        assert live(tokens) == []
        assert [t.content for t in tokens if t.type == "code_inline"] == [ATTACK]
    else:
        assert text.endswith(f"\n\nreply: {ATTACK}")
