"""Where judge requests go: live judge backends (each request a fresh one-turn session,
bounded in time and recorded when asked), or the recording a run replays."""

from __future__ import annotations

from holodeck_lsp.runner.backends.backend import Backend, Reply, Session, TurnRequest
from holodeck_lsp.runner.execute.recording import Recorder, RecordingSession, ReplayBackend
from holodeck_lsp.runner.execute.turn_time_limit import TimedSession
from holodeck_lsp.runner.score.metrics.judge_panel import JudgeModel


class LiveChannel:
    """A fresh one-turn session per request, bounded in time, recorded when asked."""

    def __init__(self, backends: dict[str, Backend], recorder: Recorder | None) -> None:
        self.backends = backends
        self.recorder = recorder

    async def ask(
        self, model: JudgeModel, request: TurnRequest, timeout: float, setting: str
    ) -> Reply:
        inner = await self.backends[model.key].create_session()
        session: Session = TimedSession(inner, timeout, setting)
        if self.recorder is not None:
            session = RecordingSession(session, self.recorder.as_agent(model.identity))
        try:
            return await session.send(request)
        finally:
            await session.close()

    async def close(self) -> None:
        for backend in self.backends.values():
            await backend.close()


class ReplayChannel:
    """Answers from the recording the agent replays from; a missing request stops the run."""

    def __init__(self, replay: ReplayBackend) -> None:
        self.replay = replay

    async def ask(
        self, model: JudgeModel, request: TurnRequest, timeout: float, setting: str
    ) -> Reply:
        session = await self.replay.as_agent(model.identity).create_session()
        return await session.send(request)

    async def close(self) -> None:
        return None
