"""Where a model service is reached: URL and headers per provider, keys from the model or
the environment. Shared by the chat backends and the embedding client of the tools."""

from __future__ import annotations

from collections.abc import Mapping

from holodeck_lsp.models.llm import LLMProvider, ProviderEnum

DEFAULT_AZURE_API_VERSION = "2024-10-21"


class BackendConfigError(Exception):
    """The backend cannot be set up (missing key, unsupported option, tool import)."""


def api_key(model: LLMProvider, env: Mapping[str, str], variable: str) -> str | None:
    if model.api_key is not None:
        return model.api_key.get_secret_value()
    return env.get(variable)


def join_url(base: str, suffix: str) -> str:
    base = base.rstrip("/")
    return base if base.endswith(suffix) else base + suffix


def service_target(
    model: LLMProvider, env: Mapping[str, str], operation: str, deployment: str | None = None
) -> tuple[str, dict[str, str]]:
    """URL and headers of one operation (`chat/completions`, `embeddings`) of the model's
    OpenAI-compatible service; Azure addresses `deployment` (the model's name unless
    given)."""
    provider = model.provider
    suffix = "/" + operation
    if provider is ProviderEnum.AZURE_OPENAI:
        key = api_key(model, env, "AZURE_OPENAI_API_KEY")
        if not key:
            raise BackendConfigError("no API key: set model.api_key or AZURE_OPENAI_API_KEY")
        version = model.api_version or env.get("OPENAI_API_VERSION") or DEFAULT_AZURE_API_VERSION
        base = str(model.endpoint).rstrip("/")
        name = deployment or model.name
        return f"{base}/openai/deployments/{name}{suffix}?api-version={version}", {"api-key": key}
    if provider is ProviderEnum.OLLAMA:
        base = model.endpoint or env.get("OLLAMA_HOST") or "http://localhost:11434"
        if "://" not in base:
            base = "http://" + base
        base = base.rstrip("/")
        if not base.endswith(("/v1", suffix)):
            base += "/v1"  # Ollama's OpenAI-compatible API lives under /v1
        key = api_key(model, env, "OLLAMA_API_KEY")
        return join_url(base, suffix), {"Authorization": f"Bearer {key}"} if key else {}
    base = model.endpoint or env.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"
    key = api_key(model, env, "OPENAI_API_KEY")
    if not key and model.endpoint is None and "OPENAI_BASE_URL" not in env:
        raise BackendConfigError("no API key: set model.api_key or OPENAI_API_KEY")
    return join_url(base, suffix), {"Authorization": f"Bearer {key}"} if key else {}
