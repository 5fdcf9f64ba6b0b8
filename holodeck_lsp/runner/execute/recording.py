"""Record and replay: session wrappers that write every exchange, or answer from them.

An exchange is one turn: the message sent (with the conversation before it) and what came
back, a reply or a failure. Recording writes exchanges as JSON lines; replay answers from
them and refuses, loudly, any exchange it has not seen.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from holodeck_lsp.hygiene.controls import visible_json
from holodeck_lsp.models.test_result import ToolInvocation
from holodeck_lsp.models.token_usage import TokenUsage
from holodeck_lsp.nesting import MAX_FILE_DEPTH, loads
from holodeck_lsp.runner.backends.backend import Backend, Reply, Session, TurnRequest
from holodeck_lsp.runner.services.atomic_output import atomic_write
from holodeck_lsp.runner.services.failures import (
    FAILURE_KINDS,
    TurnFailure,
)
from holodeck_lsp.runner.services.redaction import Secrets, active


class ReplayMiss(Exception):
    """A turn asked for an exchange the replay file does not hold."""


class ReplayFileError(Exception):
    """The replay file cannot be read."""


def fingerprint(agent: str, history: list[str], message: str) -> str:
    """Identity of a request: the agent, the conversation so far and the new message."""
    payload = json.dumps({"agent": agent, "history": history, "message": message})
    return hashlib.sha256(payload.encode()).hexdigest()[:24]


def _reply_json(reply: Reply) -> dict[str, Any]:
    data: dict[str, Any] = {
        "text": reply.text,
        "tool_invocations": [t.model_dump(mode="json") for t in reply.tool_invocations],
        "token_usage": reply.usage.model_dump(mode="json") if reply.usage else None,
    }
    if reply.retrieval:  # absent from older recordings, and from turns without retrieval
        data["retrieval"] = reply.retrieval
    return data


def _reply_from_json(data: dict[str, Any]) -> Reply:
    usage = data.get("token_usage")
    return Reply(
        text=data["text"],
        tool_invocations=[ToolInvocation.model_validate(t) for t in data["tool_invocations"]],
        usage=TokenUsage.model_validate(usage) if usage else None,
        retrieval=[str(chunk) for chunk in data.get("retrieval") or []],
    )


class Recorder:
    """Collects exchanges; written once, in suite order, so a re-recording diffs cleanly."""

    def __init__(self, agent: str) -> None:
        self.agent = agent
        self.entries: list[tuple[tuple[int, int], dict[str, Any]]] = []

    def as_agent(self, agent: str) -> Recorder:
        """A recorder for another answering party (a judge model) into the same file."""
        other = Recorder(agent)
        other.entries = self.entries
        return other

    def add(self, turn: TurnRequest, history: list[str], outcome: Reply | TurnFailure) -> None:
        entry: dict[str, Any] = {
            "fingerprint": fingerprint(self.agent, history, turn.message),
            "test_case": turn.test_case,
            "turn_index": turn.turn_index,
            "message": turn.message,
        }
        if turn.judge is not None:
            entry["judge"] = turn.judge
        if isinstance(outcome, Reply):
            entry["reply"] = _reply_json(outcome)
        else:
            entry["error"] = {"kind": outcome.kind, "message": str(outcome)}
        self.entries.append(((turn.case_index, turn.turn_index), entry))

    def write(self, path: Path, secrets: Secrets | None = None) -> None:
        """Every exchange, its values masked before they are encoded."""
        secrets = secrets or Secrets()
        entries = [e for _, e in sorted(self.entries, key=_key)]
        text = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries)
        if secrets.touches(text):  # only then are the values walked
            masked = [secrets.mask_data(e) for e in entries]
            text = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in masked)
        atomic_write(path, secrets.mask(visible_json(text)))


def _key(item: tuple[tuple[int, int], dict[str, Any]]) -> tuple[int, int]:
    return item[0]


async def send_recorded(
    session: Session, turn: TurnRequest, history: list[str], recorder: Recorder
) -> Reply:
    """Send the turn; its reply or failure is recorded either way."""
    try:
        reply = await session.send(turn)
    except TurnFailure as failure:
        recorder.add(turn, history, failure)
        raise
    recorder.add(turn, history, reply)
    return reply


class RecordingSession:
    def __init__(self, inner: Session, recorder: Recorder) -> None:
        self._inner = inner
        self._recorder = recorder
        self._history: list[str] = []

    async def send(self, turn: TurnRequest) -> Reply:
        history = list(self._history)
        self._history.append(turn.message)
        return await send_recorded(self._inner, turn, history, self._recorder)

    async def close(self) -> None:
        await self._inner.close()


class RecordingBackend:
    def __init__(self, inner: Backend, recorder: Recorder) -> None:
        self._inner = inner
        self.recorder = recorder

    async def create_session(self) -> Session:
        return RecordingSession(await self._inner.create_session(), self.recorder)

    async def close(self) -> None:
        await self._inner.close()


def load_replay(path: Path) -> dict[str, list[dict[str, Any]]]:
    """Exchanges by fingerprint, in file order."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ReplayFileError(f"cannot read replay file {path}: {exc}") from None
    table: dict[str, list[dict[str, Any]]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            entry = loads(line, MAX_FILE_DEPTH)  # a recording holds the replies
            key = entry["fingerprint"]
            if "reply" in entry:
                _reply_from_json(entry["reply"])
            else:
                FAILURE_KINDS[entry["error"]["kind"]]
        except (ValueError, KeyError, TypeError, ValidationError) as exc:
            raise ReplayFileError(f"{path}:{number}: not a recorded exchange ({exc})") from None
        table.setdefault(key, []).append(entry)
    if not table:
        raise ReplayFileError(f"replay file {path} holds no recorded exchange")
    return table


Table = dict[str, list[dict[str, Any]]]


def recorded_outcome(entries: list[dict[str, Any]]) -> Reply | TurnFailure:
    """The next recorded answer to a request: identical requests recorded more than once
    are answered in recorded order, the last one again and again."""
    entry = entries.pop(0) if len(entries) > 1 else entries[0]
    if "reply" in entry:
        return _reply_from_json(entry["reply"])
    error = entry["error"]
    return FAILURE_KINDS[error["kind"]](error["message"])


class ReplaySession:
    def __init__(self, backend: ReplayBackend) -> None:
        self._backend = backend
        self._history: list[str] = []

    async def send(self, turn: TurnRequest) -> Reply:
        key = fingerprint(self._backend.agent, self._history, turn.message)
        self._history.append(turn.message)
        entries = self._backend.table.get(key)
        if not entries:
            judged = f" (judge of '{turn.judge}')" if turn.judge is not None else ""
            shown = active().clip(turn.message, 80, "")
            raise ReplayMiss(
                f"{turn.test_case}, turn {turn.turn_index}{judged}: no recorded exchange for this "
                f"request in {self._backend.path} (the agent, an earlier turn or this "
                f"message changed: {shown!r}); record again with --record"
            )
        outcome = recorded_outcome(entries)
        if isinstance(outcome, TurnFailure):
            raise outcome
        return outcome

    async def close(self) -> None:
        return None


class ReplayBackend:
    """Answers every turn from a recording; never touches the network."""

    def __init__(
        self, path: Path, agent: str, table: dict[str, list[dict[str, Any]]] | None = None
    ) -> None:
        self.path = path
        self.agent = agent
        self.table = load_replay(path) if table is None else table

    def as_agent(self, agent: str) -> ReplayBackend:
        """Answers for another party (a judge model) from the same recording."""
        return ReplayBackend(self.path, agent, self.table)

    async def create_session(self) -> Session:
        return ReplaySession(self)

    async def close(self) -> None:
        return None
