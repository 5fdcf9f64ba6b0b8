"""The backend a suite runs against: from `model.provider`, or `--agent pkg.mod:factory`."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from holodeck_lsp.models.agent import Agent
from holodeck_lsp.models.llm import LLMProvider, ProviderEnum
from holodeck_lsp.named_files import MAX_NAMED_BYTES, NotReadable, read_text
from holodeck_lsp.runner.backends.anthropic_messages import (
    API_VERSION,
    MessagesBackend,
    MessagesSettings,
)
from holodeck_lsp.runner.backends.backend import Backend
from holodeck_lsp.runner.backends.openai_chat import ChatBackend, ChatSettings
from holodeck_lsp.runner.backends.python_agent import PythonBackend
from holodeck_lsp.runner.backends.reasoning_models import service_effort
from holodeck_lsp.runner.backends.structured_output import OutputSchema, load_output_schema
from holodeck_lsp.runner.services.http_client import JsonClient, RetryPolicy
from holodeck_lsp.runner.services.service_targets import (
    BackendConfigError,
    api_key,
    join_url,
    service_target,
)
from holodeck_lsp.runner.services.user_imports import ImportFailure, import_callable
from holodeck_lsp.runner.tools.catalog import build_toolbox
from holodeck_lsp.runner.tools.toolbox import ToolBox


@dataclass
class BackendPlan:
    backend: Backend
    warnings: list[str] = field(default_factory=list)
    tools: ToolBox | None = None  # started by the run before the first test case


def system_prompt(agent: Agent, folder: Path) -> str:
    instructions = agent.instructions
    if instructions.inline:
        return str(instructions.inline)
    file = folder / str(instructions.file)
    try:
        return read_text(file, MAX_NAMED_BYTES)
    except NotReadable as exc:
        raise BackendConfigError(f"cannot read instructions file {file}: it {exc.reason}") from None


def identity(agent: Agent, folder: Path, python_agent: str | None) -> str:
    """What replay keys on besides the conversation: which agent answered."""
    if python_agent is not None:
        return f"python:{python_agent}"
    model = agent.model
    prompt = hashlib.sha256(system_prompt(agent, folder).encode()).hexdigest()[:16]
    tools = ",".join(sorted(t.name for t in agent.tools or []))
    who = f"{model.provider.value}:{model.name}:{prompt}:{tools}"
    output = load_output_schema(agent.response_format, folder)
    if output is None:
        return who  # as before structured output was sent: older recordings still match
    schema = json.dumps(output.schema, sort_keys=True, separators=(",", ":"))
    return f"{who}:schema={hashlib.sha256(schema.encode()).hexdigest()[:16]}"


def load_tools(agent: Agent, folder: Path) -> tuple[ToolBox, list[str]]:
    catalog = build_toolbox(agent, folder)
    if catalog.problems:
        raise BackendConfigError("; ".join(catalog.problems))
    return catalog.box, catalog.warnings


def build_backend(
    agent: Agent,
    folder: Path,
    python_agent: str | None = None,
    parallelism: int = 1,
    env: Mapping[str, str] | None = None,
    policy: RetryPolicy | None = None,
) -> BackendPlan:
    """The live backend for this agent; raises `BackendConfigError` before any call."""
    env = os.environ if env is None else env
    if python_agent is not None:
        try:
            factory = import_callable(python_agent, folder)
        except ImportFailure as exc:
            raise BackendConfigError(f"--agent {python_agent}: {exc}") from None
        return BackendPlan(PythonBackend(factory))
    output = load_output_schema(agent.response_format, folder)
    tools, warnings = load_tools(agent, folder)
    prompt = system_prompt(agent, folder)
    effort = service_effort(agent.openai.effort if agent.openai is not None else None)
    backend = model_backend(
        agent.model, prompt, tools, max_model_calls(agent), parallelism, env, policy, output, effort
    )
    return BackendPlan(backend, warnings, tools)


def max_model_calls(agent: Agent) -> int:
    """Model requests per turn: `max_turns` of the block HoloDeck's backend for this
    provider reads (`claude:` for anthropic and ollama, which it runs on the Claude Agent
    SDK; `openai:` otherwise), 20 when unset."""
    claude_backend = agent.model.provider in (ProviderEnum.ANTHROPIC, ProviderEnum.OLLAMA)
    block = agent.claude if claude_backend else agent.openai
    return (block.max_turns if block is not None else None) or 20


def model_backend(
    model: LLMProvider,
    prompt: str,
    tools: ToolBox,
    max_calls: int,
    parallelism: int,
    env: Mapping[str, str],
    policy: RetryPolicy | None,
    output: OutputSchema | None = None,
    effort: str | None = None,
) -> Backend:
    """A live backend for one model: the agent's, or a judge's (no tools, one call).
    ``output`` is the agent's response_format, ``effort`` its reasoning effort (OpenAI's
    value)."""
    connections = max(parallelism, 4)
    if model.provider is ProviderEnum.ANTHROPIC:
        auth = model.auth_provider
        if auth is not None and auth.value != "api_key":
            raise BackendConfigError(
                f"auth_provider '{auth.value}' is not supported by this runner yet"
            )
        key = api_key(model, env, "ANTHROPIC_API_KEY")
        base = model.endpoint or env.get("ANTHROPIC_BASE_URL") or "https://api.anthropic.com"
        if not key and model.endpoint is None:
            raise BackendConfigError("no API key: set model.api_key or ANTHROPIC_API_KEY")
        headers = {"anthropic-version": API_VERSION}
        if key:
            headers["x-api-key"] = key
        messages = MessagesSettings(
            url=join_url(base, "/v1/messages"),
            model=model.name,
            system_prompt=prompt,
            max_tokens=model.max_tokens or 1000,
            temperature=model.temperature,
            top_p=model.top_p,
            max_model_calls=max_calls,
            output=output,
        )
        client = JsonClient(
            headers, policy, connections, tls=not messages.url.startswith("http:"), env=env
        )
        return MessagesBackend(messages, client, tools)
    url, headers = service_target(model, env, "chat/completions")
    chat = ChatSettings(
        url=url,
        model=model.name,
        system_prompt=prompt,
        temperature=model.temperature,
        max_tokens=model.max_tokens,
        top_p=model.top_p,
        max_model_calls=max_calls,
        reasoning_effort=effort,
        output=output,
    )
    client = JsonClient(headers, policy, connections, tls=not url.startswith("http:"), env=env)
    return ChatBackend(chat, client, tools)
