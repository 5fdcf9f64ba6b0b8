"""OpenAI-compatible Chat Completions with tool calling (OpenAI, Azure OpenAI, Ollama, any
`endpoint:` that speaks the protocol)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from holodeck_lsp.models.test_result import ToolInvocation
from holodeck_lsp.models.token_usage import TokenUsage
from holodeck_lsp.runner.backends.backend import Reply, TurnRequest, case_tools
from holodeck_lsp.runner.backends.reasoning_models import is_reasoning_model
from holodeck_lsp.runner.backends.structured_output import SCHEMA_NAME, OutputSchema, final_reply
from holodeck_lsp.runner.services.failures import AgentRunFailed, BackendError
from holodeck_lsp.runner.services.http_client import JsonClient
from holodeck_lsp.runner.services.redaction import active
from holodeck_lsp.runner.tools.tool_kind import ToolOutput, ToolRaised, parse_arguments
from holodeck_lsp.runner.tools.toolbox import CaseTools, ToolBox


@dataclass(frozen=True)
class ChatSettings:
    """Where and how to call the model."""

    url: str
    model: str
    system_prompt: str
    temperature: float | None = None
    max_tokens: int | None = None
    top_p: float | None = None
    max_model_calls: int = 20  # model round trips per turn (tool calls in between)
    reasoning_effort: str | None = None  # the service's value (`openai.effort` mapped)
    output: OutputSchema | None = None  # response_format

    def fixed_fields(self) -> dict[str, Any]:
        """What every request carries besides the model, messages and tools.

        A reasoning model takes no sampling parameters and names its output limit
        `max_completion_tokens` (the Responses API's `max_output_tokens`, which HoloDeck
        sends for every model; Chat Completions services without reasoning models know
        only `max_tokens`)."""
        fields: dict[str, Any] = {}
        if is_reasoning_model(self.model):
            if self.max_tokens is not None:
                fields["max_completion_tokens"] = self.max_tokens
        else:
            for key, value in (
                ("temperature", self.temperature),
                ("max_tokens", self.max_tokens),
                ("top_p", self.top_p),
            ):
                if value is not None:
                    fields[key] = value
        if self.reasoning_effort is not None:
            fields["reasoning_effort"] = self.reasoning_effort
        if self.output is not None:
            fields["response_format"] = {
                "type": "json_schema",
                "json_schema": {
                    "name": SCHEMA_NAME,
                    "schema": self.output.schema,
                    "strict": self.output.strict,
                },
            }
        return fields


def _usage(data: dict[str, Any]) -> TokenUsage | None:
    raw = data.get("usage")
    if not isinstance(raw, dict):
        return None
    prompt = int(raw.get("prompt_tokens") or 0)
    completion = int(raw.get("completion_tokens") or 0)
    details = raw.get("prompt_tokens_details")
    cached = int(details.get("cached_tokens") or 0) if isinstance(details, dict) else 0
    total = max(int(raw.get("total_tokens") or 0), prompt + completion)
    return TokenUsage(
        prompt_tokens=prompt,
        completion_tokens=completion,
        total_tokens=total,
        cache_read_tokens=cached,
    )


def _add(total: TokenUsage | None, more: TokenUsage | None) -> TokenUsage | None:
    if more is None:
        return total
    return more if total is None else total + more


class ChatSession:
    """One conversation; the history grows only when a turn completes."""

    def __init__(self, backend: ChatBackend, tools: CaseTools) -> None:
        self._backend = backend
        self._tools = tools
        self._history: list[dict[str, Any]] = []
        if backend.settings.system_prompt:
            self._history.append({"role": "system", "content": backend.settings.system_prompt})

    async def send(self, turn: TurnRequest) -> Reply:
        settings = self._backend.settings
        # Work on a copy: a failed or timed-out turn leaves the history as it was.
        messages = [*self._history, {"role": "user", "content": turn.message}]
        invocations: list[ToolInvocation] = []
        retrieval: list[str] = []
        usage: TokenUsage | None = None
        for _ in range(settings.max_model_calls):
            data = await self._backend.client.post(settings.url, self._backend.body(messages))
            usage = _add(usage, _usage(data))
            message = _first_message(data)
            calls = message.get("tool_calls") or []
            if not calls:
                text = _text(message.get("content"))
                messages.append({"role": "assistant", "content": text})
                reported = final_reply(self._backend.settings.output, text)
                self._history = messages
                return Reply(reported, invocations, usage, retrieval)
            messages.append(
                {"role": "assistant", "content": message.get("content"), "tool_calls": calls}
            )
            for call in calls:
                invocation, output = await self._run_call(call)
                invocations.append(invocation)
                retrieval.extend(output.retrieval or [])
                messages.append(
                    {"role": "tool", "tool_call_id": call.get("id", ""), "content": output.text}
                )
        raise AgentRunFailed(f"MaxTurnsExceeded: Max turns ({settings.max_model_calls}) exceeded")

    def restore(self, message: str, reply: Reply) -> bool:
        """A turn answered elsewhere (a recording being resumed) joins the conversation as
        this session would have held it: the message, the tool calls, the reply."""
        self._history.append({"role": "user", "content": message})
        calls = [
            {
                "id": f"call_{i}",
                "type": "function",
                "function": {"name": call.name, "arguments": json.dumps(call.args)},
            }
            for i, call in enumerate(reply.tool_invocations)
        ]
        if calls:
            self._history.append({"role": "assistant", "content": None, "tool_calls": calls})
            for call, invocation in zip(calls, reply.tool_invocations, strict=True):
                self._history.append(
                    {"role": "tool", "tool_call_id": call["id"], "content": tool_text(invocation)}
                )
        self._history.append({"role": "assistant", "content": reply.text})
        return True

    async def _run_call(self, call: Any) -> tuple[ToolInvocation, ToolOutput]:
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            raise BackendError(f"malformed tool call from the model: {call!r}")
        name = function["name"]
        args, problem = parse_arguments(function.get("arguments"))
        if problem is not None:
            return ToolInvocation(name=name, error=problem), ToolOutput(f"error: {problem}", None)
        try:
            return await self._tools.call(name, args)
        except ToolRaised as exc:
            raise AgentRunFailed(str(exc)) from exc

    async def close(self) -> None:
        self._history = []
        await self._tools.close()


def tool_text(invocation: ToolInvocation) -> str:
    """What the model was handed back for a recorded tool call."""
    if invocation.error:
        return f"error: {invocation.error}"
    result = invocation.result
    return result if isinstance(result, str) else json.dumps(result)


def _text(content: Any) -> str:
    """Message content as text; some services send a list of typed parts."""
    if isinstance(content, list):
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return "" if content is None else str(content)


def _first_message(data: dict[str, Any]) -> dict[str, Any]:
    choices = data.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], dict):
        message = choices[0].get("message")
        if isinstance(message, dict):
            return message
    shown = active().clip(json.dumps(data), 300, "")
    raise BackendError(f"the reply has no choices[0].message: {shown}")


class ChatBackend:
    """Sessions over one shared HTTP client."""

    def __init__(self, settings: ChatSettings, client: JsonClient, tools: ToolBox) -> None:
        self.settings = settings
        self.client = client
        self.tools = tools
        self._tool_payload: list[dict[str, Any]] | None = None  # once the tools started
        self._fixed = settings.fixed_fields()

    def _tools_json(self) -> list[dict[str, Any]]:
        if self._tool_payload is None:
            self._tool_payload = [
                {
                    "type": "function",
                    "function": {
                        "name": spec.name,
                        "description": spec.description,
                        "parameters": spec.parameters,
                    },
                }
                for spec in self.tools.specs
            ]
        return self._tool_payload

    def body(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.settings.model, "messages": messages, **self._fixed}
        tools = self._tools_json()
        if tools:
            body["tools"] = tools
        return body

    async def create_session(self) -> ChatSession:
        return ChatSession(self, await case_tools(self.tools))

    async def close(self) -> None:
        await self.client.close()
