"""Where a model service is reached: URL and headers per provider, keys from the model or
the environment. Shared by the chat backends and the embedding client of the tools."""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import parse_qsl, quote, unquote, urlsplit, urlunsplit

from holodeck_lsp.hygiene.clipping import MASK
from holodeck_lsp.models.llm import LLMProvider, ProviderEnum

DEFAULT_AZURE_API_VERSION = "2024-10-21"


class BackendConfigError(Exception):
    """The backend cannot be set up (missing key, unsupported option, tool import)."""


def api_key(model: LLMProvider, env: Mapping[str, str], variable: str) -> str | None:
    if model.api_key is not None:
        return model.api_key.get_secret_value()
    return env.get(variable)


def join_url(base: str, suffix: str) -> str:
    """``suffix`` added to the path of ``base`` (unless it ends with it already); the
    query, if any, stays at the end."""
    parts = urlsplit(base.strip())
    path = parts.path.rstrip("/")
    return urlunsplit(parts._replace(path=path if path.endswith(suffix) else path + suffix))


def with_query(url: str, name: str, value: str) -> str:
    """``url`` with ``name=value`` added to its query."""
    parts = urlsplit(url)
    pair = f"{quote(name)}={quote(value)}"
    return urlunsplit(parts._replace(query=f"{parts.query}&{pair}" if parts.query else pair))


# Query parameters that carry a credential (`?token=`, `?api-key=`, `?sig=`, Azure
# Functions' `?code=`).
_CREDENTIAL_PARAMETER = re.compile(
    r"(?i)(key|token|secret|password|passwd|signature|credentials?|auth|sig|code)$"
)


def url_credentials(url: str) -> list[str]:
    """The secrets a URL carries, as written and decoded: its user and password, and the
    values of its credential parameters."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return []
    found: list[str] = []
    userinfo, at, _host = parts.netloc.rpartition("@")
    if at:
        found += [piece for piece in userinfo.split(":", 1) if piece]
    for raw in parts.query.split("&"):
        name, equals, value = raw.partition("=")
        if equals and value and _CREDENTIAL_PARAMETER.search(unquote(name).replace("-", "_")):
            found.append(value)
    return found + [unquote(piece) for piece in found if unquote(piece) != piece]


def server_address(url: str) -> str:
    """`host:port` of a server's URL: what an error names when the URL is the value of a
    secret field (a `connection_string`), which the run masks whole wherever it appears."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return MASK
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"  # an IPv6 address
    return f"{host}:{port}" if port is not None else host or MASK


def public_url(url: str) -> str:
    """``url`` as it may be printed: user, password and every query value replaced."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return MASK
    _userinfo, at, host = parts.netloc.rpartition("@")
    netloc = f"{MASK}@{host}" if at else host
    query = "&".join(f"{name}={MASK}" for name, _ in parse_qsl(parts.query, True))
    return urlunsplit(parts._replace(netloc=netloc, query=query))


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
        name = deployment or model.name
        url = join_url(str(model.endpoint), f"/openai/deployments/{name}{suffix}")
        return with_query(url, "api-version", version), {"api-key": key}
    if provider is ProviderEnum.OLLAMA:
        base = model.endpoint or env.get("OLLAMA_HOST") or "http://localhost:11434"
        if "://" not in base:
            base = "http://" + base
        if not urlsplit(base).path.rstrip("/").endswith(("/v1", suffix)):
            base = join_url(base, "/v1")  # Ollama's OpenAI-compatible API lives under /v1
        key = api_key(model, env, "OLLAMA_API_KEY")
        return join_url(base, suffix), {"Authorization": f"Bearer {key}"} if key else {}
    base = model.endpoint or env.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"
    key = api_key(model, env, "OPENAI_API_KEY")
    if not key and model.endpoint is None and "OPENAI_BASE_URL" not in env:
        raise BackendConfigError("no API key: set model.api_key or OPENAI_API_KEY")
    return join_url(base, suffix), {"Authorization": f"Bearer {key}"} if key else {}
