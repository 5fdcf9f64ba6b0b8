"""Run test cases from the editor, in any LSP client: code lenses "Run case" above each
test case and "Run turn" above each turn (the case up to that turn), executed through
`workspace/executeCommand`; progress with `$/progress`; results as diagnostics of source
`holodeck-lsp run` and on hover (server/run_results.py); with the setting `run.baseline` (an
earlier run's report), a turn that passed there and fails now is marked regressed.

A run imports the workspace's graders and tools, and so does `run --from-report`: in a
workspace the client has not marked trusted (`workspaceTrusted`) there are no lenses and
every command is refused with a message.

The run is `holodeck-lsp run --case N [--up-to-turn T] --events -` in a child process, as
server/run_command_line.py builds it (replaying the suite's recording when `run.replay`
names one or `replay.jsonl` is beside the suite; it and `run.baseline` must lie in the
suite's workspace folder, else the command is refused): the server imports nothing of the
runner, and whatever the agent, its tools or its graders do cannot take the server down.
The child is isolated (`isolation/children.py`): the workspace's modules are not on its
path until the runner puts the agent's folder there for its graders and tools.
`holodeck.showReport` places a report produced elsewhere (CI's `report.json`) the same
way: `run --from-report`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from holodeck_lsp.editing.outline import suite_items
from holodeck_lsp.isolation.children import python_command
from holodeck_lsp.nesting import MAX_FILE_DEPTH, loads
from holodeck_lsp.server.initialization import COMMANDS
from holodeck_lsp.server.open_documents import Document, uri_path
from holodeck_lsp.server.routes import Refused, Route
from holodeck_lsp.server.run_command_line import (
    OutsideWorkspace,
    confined_baseline,
    confined_recording,
    lens_mode,
    report_arguments,
    run_arguments,
)
from holodeck_lsp.server.run_results import from_events
from holodeck_lsp.server.session import Session

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

log = logging.getLogger(__name__)

RUN_CASE, RUN_TURN, SHOW_REPORT = COMMANDS
STOP_GRACE = 5.0  # seconds a cancelled run gets to stop before it is killed


UNTRUSTED = (
    "{command} refused: this workspace is not trusted, and running its test cases (or showing "
    "a report of them) imports its graders and tools. Trust the workspace first (VS Code: "
    "Manage Workspace Trust; other editors: the setting workspaceTrusted)."
)


class Untrusted(Refused):
    pass


# The CLI in this interpreter, whatever PATH says, isolated from the workspace.
CLI_CODE = "from holodeck_lsp.cli import main; main()"


def lenses(text: str) -> list[tuple[int, str, list[Any]]]:
    """(line, title, arguments after the URI) of every lens of an agent file's text."""
    out: list[tuple[int, str, list[Any]]] = []
    for case in suite_items(text) or []:
        out.append((case.range.start.line, "▶ Run case", [case.index]))
        for turn in case.children:
            out.append((turn.range.start.line, "▶ Run turn", [case.index, turn.index]))
    return out


async def code_lens(session: Session, params: types.CodeLensParams) -> list[types.CodeLens]:
    doc = session.documents.get(params.text_document.uri)
    if doc is None or session.kind_of(doc) != "agent" or not session.settings.workspace_trusted:
        return []
    found = await asyncio.wrap_future(session.queries.submit(lenses, doc.text))
    out = []
    for line, title, args in found:
        command = RUN_CASE if len(args) == 1 else RUN_TURN
        where = types.Range(types.Position(line, 0), types.Position(line, 0))
        out.append(types.CodeLens(where, types.Command(title, command, arguments=[doc.uri, *args])))
    return out


class _Progress:
    """`$/progress` of one run, when the client takes server-initiated progress."""

    def __init__(self, session: Session, title: str) -> None:
        self.session = session
        self.title = title
        self.token: str | None = None

    async def begin(self) -> None:
        caps = self.session.server.client_capabilities
        if not (caps.window and caps.window.work_done_progress):
            return
        token = f"holodeck-run-{uuid.uuid4()}"
        try:
            await self.session.server.work_done_progress.create_async(token)
        except Exception:  # the client refused: run without progress
            return
        self.token = token
        self.session.server.work_done_progress.begin(
            token, types.WorkDoneProgressBegin(title=self.title, cancellable=False)
        )

    def report(self, message: str) -> None:
        if self.token is not None:
            self.session.server.work_done_progress.report(
                self.token, types.WorkDoneProgressReport(message=message)
            )

    def end(self, message: str) -> None:
        if self.token is not None:
            self.session.server.work_done_progress.end(
                self.token, types.WorkDoneProgressEnd(message=message)
            )


async def _events(
    session: Session, args: list[str], cwd: Path, progress: _Progress
) -> tuple[int, list[dict[str, Any]], str]:
    """Run the CLI; its events as they come (each turn reported), exit code, stderr."""
    starting = asyncio.ensure_future(asyncio.create_subprocess_exec(
        *python_command(CLI_CODE), *args,
        cwd=str(cwd),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    ))  # fmt: skip
    try:
        process = await asyncio.shield(starting)
    except asyncio.CancelledError:  # cancelled while starting: the run may already be going
        with contextlib.suppress(OSError):
            await _stop(await starting)
        progress.end("cancelled")
        raise
    assert process.stdout is not None and process.stderr is not None
    errors = asyncio.ensure_future(process.stderr.read())
    events: list[dict[str, Any]] = []
    try:
        async for raw in process.stdout:
            try:
                event = loads(raw, MAX_FILE_DEPTH)  # it carries the model's arguments
            except ValueError:
                continue
            events.append(event)
            if event.get("event") == "turn_finished":
                verdict = "passed" if event["passed"] else "failed"
                progress.report(f"{event['path']}: {verdict}")
        code = await process.wait()
    except asyncio.CancelledError:
        await _stop(process)
        progress.end("cancelled")
        raise
    return code, events, (await errors).decode("utf-8", "replace")


async def _stop(process: asyncio.subprocess.Process) -> None:
    """The client cancelled the command: the run stops as on Ctrl-C, and is killed if it
    does not within a few seconds; no child is left running."""
    with contextlib.suppress(ProcessLookupError):
        process.send_signal(signal.SIGINT)
    try:
        await asyncio.wait_for(process.wait(), STOP_GRACE)
    except asyncio.TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()


def _doc(session: Session, uri: Any) -> Document:
    doc = session.documents.get(str(uri))
    if doc is None:
        raise ValueError(f"{uri} is not open")
    return doc


async def execute(session: Session, command: str, args: list[Any]) -> Any:
    if command not in COMMANDS or not args:
        raise ValueError(f"{command} takes the document's URI first")
    if not session.settings.workspace_trusted:
        message = UNTRUSTED.format(command=command)
        session.server.window_show_message(
            types.ShowMessageParams(type=types.MessageType.Warning, message=message)
        )
        raise Untrusted(message)
    doc = _doc(session, args[0])
    agent = uri_path(doc.uri)
    try:
        cli, title = _command_line(session, command, args, agent)
    except OutsideWorkspace as exc:
        message = f"{command} refused: {exc}"
        session.server.window_show_message(
            types.ShowMessageParams(type=types.MessageType.Warning, message=message)
        )
        raise Refused(message) from None
    progress = _Progress(session, title)
    await progress.begin()
    code, events, stderr = await _events(session, cli, agent.parent, progress)
    summary = next((e for e in reversed(events) if e["event"].startswith("run_")), None)
    if summary is None or summary["event"] == "run_started":
        progress.end(f"the run did not start (exit {code})")
        session.log(f"holodeck-lsp run: exit {code}: {stderr.strip()}", types.MessageType.Error)
        return {"exitCode": code, "error": stderr.strip()}
    current = _doc(session, args[0])  # the text may have changed while it ran
    runs = from_events(events, current.text, session.encoding)
    session.run_results.replace(current.uri, runs)
    if session.features.pull_diagnostics:
        if session.features.diagnostic_refresh:
            session.refresh_diagnostics()
    else:
        version = current.version if session.features.versioned_diagnostics else None
        session.publish(current.uri, session.scheduler.shown(current.path).lsp, version)
    counts = summary["summary"]
    progress.end(f"{counts['passed']} passed, {counts['failed']} failed")
    return {"exitCode": code, "passed": counts["passed"], "failed": counts["failed"]}


def _command_line(session: Session, command: str, args: list[Any], agent: Path
                  ) -> tuple[list[str], str]:
    """The `holodeck-lsp` arguments of a command, and its progress title."""
    baseline = confined_baseline(agent, session.settings.run_baseline, session.roots)
    if command == SHOW_REPORT:
        if len(args) < 2:
            raise ValueError("holodeck.showReport takes the document's URI and a report path")
        report = Path(str(args[1]))
        report = report if report.is_absolute() else agent.parent / report
        return report_arguments(agent, report, baseline), f"holodeck-lsp: results of {report.name}"
    case = int(args[1])
    turn = int(args[2]) if command == RUN_TURN else None
    setting = session.settings.run_replay
    recording = confined_recording(agent, setting, session.roots)
    cli = run_arguments(agent, lens_mode(setting, recording), recording, case, turn, baseline)
    title = f"holodeck-lsp run: test_cases[{case}]"
    return cli, title if turn is None else f"{title} up to turns[{turn}]"


def _command(session: Session, name: str) -> Callable[..., Awaitable[Any]]:
    async def handler(*args: Any) -> Any:
        return await execute(session, name, list(args))

    return handler


def register(server: LanguageServer, session: Session) -> None:
    """The commands (pygls answers `workspace/executeCommand` from its command table)."""
    for name in COMMANDS:
        server.command(name)(_command(session, name))


ROUTES = [Route(types.TEXT_DOCUMENT_CODE_LENS, code_lens, types.CodeLensOptions(), empty=list)]
