"""Where a run's secrets come from, for its one registry (`redaction.Secrets`): the agent
file's configuration, the environment, request headers and an MCP server's environment.

- every `SecretStr` (model and judge `api_key`, `connection_string`, `password`, ...),
  written or substituted from `${VAR}`;
- every other string field or mapping entry named like a credential (`*_key`, `*token`,
  `*secret`, `password`, ...), and every value of an `env:` or `headers:` mapping;
- the user, password and credential query values of every URL (`endpoint:`, `url:`);
- environment variables named like credentials, and the credentials of URL-valued ones;
- what a request really sends: credential headers, an MCP server's `env_file`.

Test cases are data, not configuration: only the credentials of their files' URLs (a
signed download link) are taken from them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from pydantic import BaseModel, SecretStr

from holodeck_lsp.models.test_case import TestCaseModel
from holodeck_lsp.runner.services.service_targets import url_credentials

# `OPENAI_API_KEY`, `GITHUB_TOKEN`, `db_password`, `connection_string`, `Authorization`...
SECRET_NAME = re.compile(
    r"(?i)(key|token|secret|password|passwd|passphrase|credentials?|cookie|authorization"
    r"|connection_?string)$|(^|[_.-])(auth|pat|sig|signature)$"
)
# Mappings whose every value is secret, whatever its name: a server's environment and the
# headers sent to it (`${VAR}` substituted values land there).
SECRET_MAPPINGS = frozenset({"env", "headers"})
# Values that are settings, never secrets.
_PLAIN_VALUE = re.compile(r"(?i)(-?\d+(\.\d+)?|true|false|yes|no|on|off|null|none)")
# `Bearer xyz`, `Basic xyz`, `Token xyz`: the scheme is not part of the secret.
_SCHEME = re.compile(r"(?i)^(bearer|basic|token|apikey)\s+(\S+)$")


def value_secrets(value: str) -> list[str]:
    """A secret value, the credential after its scheme word, and the credentials of a URL."""
    found = [value]
    scheme = _SCHEME.match(value.strip())
    if scheme is not None:
        found.append(scheme.group(2))
    if "://" in value:
        found += url_credentials(value)
    return found


def mapping_secrets(values: Mapping[str, str], every: bool) -> list[str]:
    """The secret values of a mapping: all of them (``every``) but plain settings, or those
    named like credentials."""
    found: list[str] = []
    for name, value in values.items():
        if not isinstance(value, str) or not value:
            continue
        if SECRET_NAME.search(str(name)) or (every and not _PLAIN_VALUE.fullmatch(value)):
            found += value_secrets(value)
        elif "://" in value:
            found += url_credentials(value)
    return found


def environment_secrets(env: Mapping[str, str]) -> list[str]:
    """Values of variables named like credentials (`OPENAI_API_KEY`, `..._TOKEN`, ...) and
    the credentials of URL-valued ones (`OPENAI_BASE_URL=https://user:pass@...`)."""
    return mapping_secrets(env, every=False)


def config_secrets(config: Any) -> list[str]:
    """Every secret of a configuration object (an agent, a model block, a tool)."""
    found: list[str] = []
    seen: set[int] = set()

    def walk(item: Any, name: str = "") -> None:
        if isinstance(item, SecretStr):
            found.extend(value_secrets(item.get_secret_value()))
            return
        if isinstance(item, str):
            if SECRET_NAME.search(name):
                found.extend(value_secrets(item))
            elif "://" in item:
                found.extend(url_credentials(item))
            return
        if id(item) in seen:
            return
        seen.add(id(item))
        if isinstance(item, BaseModel):
            for field in type(item).model_fields:
                if field == "test_cases":
                    found.extend(_file_url_secrets(getattr(item, field, None) or []))
                else:
                    walk(getattr(item, field, None), field)
            # Options a section passes through (a vector store's `headers:`, `api_key:`).
            walk(item.model_extra or {}, name)
        elif isinstance(item, Mapping):
            strings = {k: v for k, v in item.items() if isinstance(v, str)}
            found.extend(mapping_secrets(strings, every=name in SECRET_MAPPINGS))
            for key, child in item.items():
                if not isinstance(child, str):
                    walk(child, str(key))
        elif isinstance(item, (list, tuple)):
            for child in item:
                walk(child, name)

    walk(config)
    return found


def _file_url_secrets(cases: Iterable[TestCaseModel]) -> Iterator[str]:
    for case in cases:
        files = list(case.files or [])
        for turn in case.turns or []:
            files += turn.files or []
        for file in files:
            if file.url:
                yield from url_credentials(file.url)


def header_secrets(headers: Mapping[str, str], names: Iterable[str]) -> Iterator[str]:
    """The values (and the credentials after `Bearer`) of the headers called ``names``."""
    wanted = {n.lower() for n in names}
    for name, value in headers.items():
        if name.lower() in wanted:
            yield from value_secrets(value)
