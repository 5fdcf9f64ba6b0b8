"""Anthropic Messages API with tool use."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from holodeck_lsp.models.test_result import ToolInvocation
from holodeck_lsp.models.token_usage import TokenUsage
from holodeck_lsp.runner.backends.backend import Reply, TurnRequest, case_tools
from holodeck_lsp.runner.backends.openai_chat import tool_text
from holodeck_lsp.runner.backends.structured_output import OutputSchema, final_reply
from holodeck_lsp.runner.services.failures import AgentRunFailed, BackendError
from holodeck_lsp.runner.services.http_client import JsonClient
from holodeck_lsp.runner.tools.tool_kind import ToolOutput, ToolRaised, parse_arguments
from holodeck_lsp.runner.tools.toolbox import CaseTools, ToolBox

API_VERSION = "2023-06-01"
# Structured output the way HoloDeck's Claude backend gets it (the Claude Agent SDK's CLI,
# `--json-schema`): a tool of this name takes the schema as its input, and the model ends
# its turn by calling it; the call's input is the reply.
OUTPUT_TOOL = "StructuredOutput"
OUTPUT_TOOL_DESCRIPTION = (
    "Give your final answer by calling this tool once, at the end, with the answer in the "
    "required structure."
)


@dataclass(frozen=True)
class MessagesSettings:
    """Where and how to call the model."""

    url: str
    model: str
    system_prompt: str
    max_tokens: int = 1000  # required by the API
    temperature: float | None = None
    top_p: float | None = None
    max_model_calls: int = 20
    output: OutputSchema | None = None  # response_format


def _usage(data: dict[str, Any]) -> TokenUsage | None:
    raw = data.get("usage")
    if not isinstance(raw, dict):
        return None
    prompt = int(raw.get("input_tokens") or 0)
    completion = int(raw.get("output_tokens") or 0)
    created = int(raw.get("cache_creation_input_tokens") or 0)
    read = int(raw.get("cache_read_input_tokens") or 0)
    return TokenUsage(
        prompt_tokens=prompt,
        completion_tokens=completion,
        total_tokens=prompt + completion + created + read,
        cache_creation_tokens=created,
        cache_read_tokens=read,
    )


class MessagesSession:
    """One conversation; the history grows only when a turn completes."""

    def __init__(self, backend: MessagesBackend, tools: CaseTools) -> None:
        self._backend = backend
        self._tools = tools
        self._history: list[dict[str, Any]] = []

    async def send(self, turn: TurnRequest) -> Reply:
        settings = self._backend.settings
        messages = [*self._history, {"role": "user", "content": turn.message}]
        invocations: list[ToolInvocation] = []
        retrieval: list[str] = []
        usage: TokenUsage | None = None
        for _ in range(settings.max_model_calls):
            data = await self._backend.client.post(settings.url, self._backend.body(messages))
            more = _usage(data)
            usage = more if usage is None else (usage + more if more else usage)
            content = data.get("content")
            if not isinstance(content, list):
                raise BackendError("the reply has no content list")
            blocks = [b for b in content if isinstance(b, dict)]
            uses = [b for b in blocks if b.get("type") == "tool_use"]
            messages.append({"role": "assistant", "content": blocks})
            answer = self._structured_answer(uses)
            if answer is not None:
                self._history = messages
                return Reply(answer, invocations, usage, retrieval)
            if not uses:
                text = "".join(str(b.get("text", "")) for b in blocks if b.get("type") == "text")
                text = final_reply(self._backend.settings.output, text)
                self._history = messages
                return Reply(text, invocations, usage, retrieval)
            results = []
            for use in uses:
                name = str(use.get("name", ""))
                args, problem = parse_arguments(use.get("input"))
                if problem is not None:
                    invocation = ToolInvocation(name=name, error=problem)
                    output = ToolOutput(problem)
                else:
                    try:
                        invocation, output = await self._tools.call(name, args)
                    except ToolRaised as exc:
                        raise AgentRunFailed(str(exc)) from exc
                invocations.append(invocation)
                retrieval.extend(output.retrieval or [])
                result: dict[str, Any] = {
                    "type": "tool_result",
                    "tool_use_id": use.get("id", ""),
                    "content": output.text,
                }
                if invocation.error:
                    result["is_error"] = True
                results.append(result)
            messages.append({"role": "user", "content": results})
        raise AgentRunFailed(f"MaxTurnsExceeded: Max turns ({settings.max_model_calls}) exceeded")

    def _structured_answer(self, uses: list[dict[str, Any]]) -> str | None:
        """The reply the model gave through the structured-output tool (None: it did not
        call it). The input must follow the schema, as HoloDeck's Claude backend checks."""
        output = self._backend.settings.output
        call = next((u for u in uses if u.get("name") == OUTPUT_TOOL), None)
        if output is None or call is None:
            return None
        problem = output.violation(call.get("input"))
        if problem is not None:
            raise AgentRunFailed(f"Structured output schema validation failed: {problem}")
        return json.dumps(call.get("input"))

    def restore(self, message: str, reply: Reply) -> bool:
        """A turn answered elsewhere (a recording being resumed) joins the conversation."""
        self._history.append({"role": "user", "content": message})
        calls = reply.tool_invocations
        if calls:
            uses = [
                {"type": "tool_use", "id": f"toolu_{i}", "name": c.name, "input": c.args}
                for i, c in enumerate(calls)
            ]
            self._history.append({"role": "assistant", "content": uses})
            results: list[dict[str, Any]] = []
            for use, call in zip(uses, calls, strict=True):
                result: dict[str, Any] = {
                    "type": "tool_result",
                    "tool_use_id": use["id"],
                    "content": tool_text(call),
                }
                if call.error:
                    result["is_error"] = True
                results.append(result)
            self._history.append({"role": "user", "content": results})
        self._history.append(
            {"role": "assistant", "content": [{"type": "text", "text": reply.text}]}
        )
        return True

    async def close(self) -> None:
        self._history = []
        await self._tools.close()


class MessagesBackend:
    """Sessions over one shared HTTP client."""

    def __init__(self, settings: MessagesSettings, client: JsonClient, tools: ToolBox) -> None:
        self.settings = settings
        self.client = client
        self.tools = tools
        self._tool_payload: list[dict[str, Any]] | None = None  # once the tools started

    def _tools_json(self) -> list[dict[str, Any]]:
        if self._tool_payload is None:
            self._tool_payload = [
                {"name": s.name, "description": s.description, "input_schema": s.parameters}
                for s in self.tools.specs
            ]
            output = self.settings.output
            if output is not None:
                self._tool_payload.append(
                    {
                        "name": OUTPUT_TOOL,
                        "description": OUTPUT_TOOL_DESCRIPTION,
                        "input_schema": output.schema,
                    }
                )
        return self._tool_payload

    def body(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        s = self.settings
        body: dict[str, Any] = {"model": s.model, "max_tokens": s.max_tokens, "messages": messages}
        if s.system_prompt:
            body["system"] = s.system_prompt
        if s.temperature is not None:
            body["temperature"] = s.temperature
        if s.top_p is not None:
            body["top_p"] = s.top_p
        tools = self._tools_json()
        if tools:
            body["tools"] = tools
        return body

    async def create_session(self) -> MessagesSession:
        return MessagesSession(self, await case_tools(self.tools))

    async def close(self) -> None:
        await self.client.close()
