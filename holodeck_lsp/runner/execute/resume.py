"""`--resume RECORDING`: finish an interrupted run.

Each request is first looked up in the recording of the interrupted run, exactly as replay
does; the first request the recording lacks goes live, and so does the rest of that test
case. For the HTTP backends the runner holds the conversation, so a half-finished case is
replayed up to its last recorded turn and goes on live from there (the live session is
given the replayed turns first). An `--agent` object's state cannot be rebuilt: a case that
is not whole in the recording runs live from its first turn. Everything, replayed or live,
is recorded again, so the new recording is that of an uninterrupted run.
"""

from __future__ import annotations

from holodeck_lsp.runner.backends.backend import Backend, Reply, Session, TurnRequest
from holodeck_lsp.runner.execute.recording import (
    Recorder,
    Table,
    fingerprint,
    recorded_outcome,
    send_recorded,
)
from holodeck_lsp.runner.score.metrics.judge_panel import Channel, JudgeModel
from holodeck_lsp.runner.services.failures import TurnFailure


def complete_cases(table: Table, turns: dict[str, int]) -> set[str]:
    """The test cases (by label) whose every turn is in the recording."""
    seen: dict[str, set[int]] = {}
    for entries in table.values():
        for entry in entries:
            if "judge" not in entry:
                seen.setdefault(entry["test_case"], set()).add(entry["turn_index"])
    return {label for label, count in turns.items() if len(seen.get(label, ())) >= count}


def look_up(
    table: Table, agent: str, history: list[str], message: str
) -> Reply | TurnFailure | None:
    entries = table.get(fingerprint(agent, history, message))
    return recorded_outcome(entries) if entries else None


class ResumeSession:
    def __init__(self, backend: ResumeBackend) -> None:
        self._backend = backend
        self._history: list[str] = []
        self._answered: list[tuple[str, Reply]] = []  # replayed turns the conversation holds
        self._live: Session | None = None

    async def send(self, turn: TurnRequest) -> Reply:
        backend = self._backend
        history = list(self._history)
        self._history.append(turn.message)
        if self._live is None and backend.replays(turn.test_case):
            outcome = look_up(backend.table, backend.agent, history, turn.message)
            if outcome is not None:
                backend.recorder.add(turn, history, outcome)
                if isinstance(outcome, TurnFailure):
                    raise outcome  # a failed turn leaves no trace in the conversation
                self._answered.append((turn.message, outcome))
                return outcome
        if self._live is None:
            self._live = await backend.live.create_session()
            restore = getattr(self._live, "restore", None)
            if restore is not None:
                for message, reply in self._answered:
                    restore(message, reply)
        return await send_recorded(self._live, turn, history, backend.recorder)

    async def close(self) -> None:
        if self._live is not None:
            await self._live.close()


class ResumeBackend:
    """Recorded answers first, the live backend for the rest."""

    def __init__(
        self,
        live: Backend,
        table: Table,
        agent: str,
        recorder: Recorder,
        restorable: bool,
        complete: set[str],
    ) -> None:
        self.live = live
        self.table = table
        self.agent = agent
        self.recorder = recorder
        self._restorable = restorable  # the live session can be given replayed turns
        self._complete = complete

    def replays(self, case: str) -> bool:
        return self._restorable or case in self._complete

    async def create_session(self) -> Session:
        return ResumeSession(self)

    async def close(self) -> None:
        await self.live.close()


class ResumeChannel:
    """Judge requests: recorded answers first, then the live judges (which record)."""

    def __init__(self, table: Table, live: Channel, recorder: Recorder) -> None:
        self.table = table
        self.live = live
        self.recorder = recorder

    async def ask(
        self, model: JudgeModel, request: TurnRequest, timeout: float, setting: str
    ) -> Reply:
        outcome = look_up(self.table, model.identity, [], request.message)
        if outcome is None:
            return await self.live.ask(model, request, timeout, setting)
        self.recorder.as_agent(model.identity).add(request, [], outcome)
        if isinstance(outcome, TurnFailure):
            raise outcome
        return outcome

    async def close(self) -> None:
        await self.live.close()
