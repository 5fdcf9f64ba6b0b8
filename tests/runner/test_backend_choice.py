"""Which URL, headers and backend each `model.provider` gets."""

from __future__ import annotations

from pathlib import Path

import pytest

from holodeck_lsp.models.agent import Agent
from holodeck_lsp.runner.backends.anthropic_messages import MessagesBackend
from holodeck_lsp.runner.backends.backend_choice import build_backend
from holodeck_lsp.runner.backends.openai_chat import ChatBackend
from holodeck_lsp.runner.services.service_targets import BackendConfigError


def agent(**model: object) -> Agent:
    return Agent.model_validate(
        {"name": "a", "model": {"name": "m", **model}, "instructions": {"inline": "Be brief."}}
    )


def target(model: dict[str, object], env: dict[str, str]) -> tuple[str, dict[str, str]]:
    backend = build_backend(agent(**model), Path("."), env=env).backend
    assert isinstance(backend, ChatBackend)
    headers = backend.client.headers
    wanted = ("authorization", "api-key")
    return backend.settings.url, {k.lower(): v for k, v in headers.items() if k.lower() in wanted}


def test_openai_default_and_custom_endpoints() -> None:
    assert target({"provider": "openai"}, {"OPENAI_API_KEY": "sk-1"}) == (
        "https://api.openai.com/v1/chat/completions",
        {"authorization": "Bearer sk-1"},
    )
    assert target({"provider": "openai", "endpoint": "http://h:1/v1/"}, {}) == (
        "http://h:1/v1/chat/completions",
        {},
    )


def test_azure_openai_deployment_url_and_key_header() -> None:
    url, headers = target(
        {
            "provider": "azure_openai",
            "endpoint": "https://x.openai.azure.com/",
            "api_version": "2024-06-01",
        },
        {"AZURE_OPENAI_API_KEY": "az"},
    )
    assert url == (
        "https://x.openai.azure.com/openai/deployments/m/chat/completions?api-version=2024-06-01"
    )
    assert headers == {"api-key": "az"}


def test_ollama_openai_compatible_endpoint() -> None:
    assert target({"provider": "ollama"}, {})[0] == "http://localhost:11434/v1/chat/completions"
    assert target({"provider": "ollama", "endpoint": "http://gpu:11434"}, {})[0] == (
        "http://gpu:11434/v1/chat/completions"
    )


def test_anthropic_messages_endpoint_and_unsupported_auth() -> None:
    backend = build_backend(agent(provider="anthropic", api_key="k"), Path("."), env={}).backend
    assert isinstance(backend, MessagesBackend)
    assert backend.settings.url == "https://api.anthropic.com/v1/messages"
    with pytest.raises(BackendConfigError, match="auth_provider 'bedrock' is not supported"):
        build_backend(agent(provider="anthropic", auth_provider="bedrock"), Path("."), env={})
    with pytest.raises(BackendConfigError, match="ANTHROPIC_API_KEY"):
        build_backend(agent(provider="anthropic"), Path("."), env={})
