"""Calling judge models: through a channel (`execute/judge_channels.py`: the runner's own
backends, recorded and replayed like the agent), retried on a failed call or an unusable
reply, and counted apart from the agent."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from typing import Protocol

from holodeck_lsp.models.llm import LLMProvider
from holodeck_lsp.models.token_usage import TokenUsage
from holodeck_lsp.runner.backends.backend import Reply, TurnRequest
from holodeck_lsp.runner.score.metrics.judge_replies import MalformedReply, parse_object
from holodeck_lsp.runner.score.metrics.rubrics import SYSTEM_PROMPT, Rubric, Verdict
from holodeck_lsp.runner.services.failures import TurnFailure
from holodeck_lsp.runner.services.redaction import active

DEFAULT_RETRIES = 1  # when the metric has no `retry_on_failure`
RAW_LIMIT = 1000  # characters of an unusable reply kept in the metric's error
_PREFIX = {"backend": "backend error: ", "session": "session ended: "}
_RETRY_NOTE = "\n\nYour previous reply could not be used ({why}). Reply with the JSON object only."


@dataclass(frozen=True)
class JudgeModel:
    """A judge model as configured, and what identifies it in a recording."""

    config: LLMProvider

    @property
    def name(self) -> str:
        return self.config.name

    @property
    def identity(self) -> str:
        # The judge's instructions are part of every request it answers.
        prompt = hashlib.sha256(SYSTEM_PROMPT.encode()).hexdigest()[:16]
        return f"judge:{self.config.provider.value}:{self.config.name}:{prompt}"

    @property
    def key(self) -> str:
        """Equal for configurations that can share one client."""
        values = self.config.model_dump(mode="json", exclude={"api_key"})
        secret = self.config.api_key.get_secret_value() if self.config.api_key else None
        return json.dumps([values, secret], sort_keys=True)


class Channel(Protocol):
    """Where judge requests go: live backends, or a recording."""

    async def ask(
        self, model: JudgeModel, request: TurnRequest, timeout: float, setting: str
    ) -> Reply: ...

    async def close(self) -> None: ...


@dataclass
class JudgeLedger:
    """Judge calls and their tokens, kept apart from the agent's."""

    calls: int = 0
    usage: TokenUsage = field(default_factory=TokenUsage.zero)

    def environment(self) -> dict[str, str]:
        return {
            "judge_calls": str(self.calls),
            "judge_prompt_tokens": str(self.usage.prompt_tokens),
            "judge_completion_tokens": str(self.usage.completion_tokens),
            "judge_total_tokens": str(self.usage.total_tokens),
        }


def ledger_line(environment: dict[str, str]) -> str | None:
    """The summary line of judge use, from a report's environment; None without judges."""
    calls = int(environment.get("judge_calls", "0"))
    if not calls:
        return None
    prompt = int(environment.get("judge_prompt_tokens", "0"))
    completion = int(environment.get("judge_completion_tokens", "0"))
    total = int(environment.get("judge_total_tokens", "0"))
    return (
        f"judge: {calls} call(s), {total:,} token(s) ({prompt:,} prompt, {completion:,} completion)"
    )


@dataclass(frozen=True)
class JudgeOutcome:
    verdict: Verdict | None
    error: str | None
    retries: int
    execution_error: bool = False  # the judge's model service failed


def _excerpt(text: str) -> str:
    return active().clip(text, RAW_LIMIT + 3)


class JudgePanel:
    """Judge models of a run: which one grades a metric, and the calls made to them."""

    def __init__(
        self,
        channel: Channel,
        default_model: LLMProvider,
        default_timeout: float,
    ) -> None:
        self.channel = channel
        self.default_model = default_model
        self.default_timeout = default_timeout
        self.ledger = JudgeLedger()

    def model_for(self, configured: LLMProvider | None) -> JudgeModel:
        """The metric's `model:`, else `evaluations.model`, else the agent's model."""
        return JudgeModel(configured or self.default_model)

    async def grade(
        self,
        rubric: Rubric,
        model: JudgeModel,
        request: TurnRequest,
        retries: int,
        timeout: float,
        setting: str,
    ) -> JudgeOutcome:
        """Ask until a usable verdict, at most ``retries`` times after the first call."""
        note: str | None = None
        error, execution, attempt = "", False, 0
        for attempt in range(retries + 1):
            message = rubric.prompt if note is None else rubric.prompt + note
            self.ledger.calls += 1
            try:
                reply = await self.channel.ask(
                    model, replace(request, message=message), timeout, setting
                )
            except TurnFailure as failure:
                error = f"judge {_PREFIX.get(failure.kind, '')}{failure}"
                execution, note = failure.execution_error, None
                if failure.breaks_session:
                    break
                continue
            if reply.usage is not None:
                self.ledger.usage = self.ledger.usage + reply.usage
            try:
                verdict = rubric.read(parse_object(reply.text))
            except MalformedReply as bad:
                error = f"malformed judge reply ({bad}); raw reply: {_excerpt(reply.text)!r}"
                execution, note = False, _RETRY_NOTE.format(why=bad)
                continue
            return JudgeOutcome(verdict, None, attempt)
        tries = attempt + 1
        return JudgeOutcome(None, f"{error} [{tries} attempt(s)]", attempt, execution)

    async def close(self) -> None:
        await self.channel.close()
