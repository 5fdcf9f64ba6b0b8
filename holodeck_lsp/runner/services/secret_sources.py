"""Where a run's secrets come from, for its one registry (`redaction.Secrets`): the agent
file's configuration, the environment, request headers and an MCP server's environment;
and the names the report carries, which masking must leave whole.

- every `SecretStr` (model and judge `api_key`, `connection_string`, `password`, ...),
  written or substituted from `${VAR}`;
- every other string field or mapping entry named like a credential (`*_key`, `*token`,
  `*secret`, `password`, `authorization`, ...) or named in `HOLODECK_LSP_SECRET_NAMES`;
- in an `env:`, `env_file` or `headers:` mapping, also a value shaped like a credential
  (`Bearer ...`, a long random-looking word), whatever its name; any other value there
  (a tool's name, a region, a path) is a setting, and stays readable;
- the user, password and credential query values of every URL (`endpoint:`, `url:`);
- environment variables named like credentials (or in `HOLODECK_LSP_SECRET_NAMES`), and
  the credentials of URL-valued ones: so a value substituted from such a `${VAR}` is one;
- what a request really sends: credential headers.

Test cases are data, not configuration: only the credentials of their files' URLs (a
signed download link) are taken from them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, SecretStr

from holodeck_lsp.models.test_case import TestCaseModel
from holodeck_lsp.runner.services.redaction import Secrets
from holodeck_lsp.runner.services.service_targets import url_credentials

# `OPENAI_API_KEY`, `GITHUB_TOKEN`, `db_password`, `connection_string`, `Authorization`...
SECRET_NAME = re.compile(
    r"(?i)(key|token|secret|password|passwd|passphrase|credentials?|cookie|authorization"
    r"|connection_?string)$|(^|[_.-])(auth|pat|sig|signature)$"
)
# More names of secrets, the user's (comma- or space-separated): variables of the
# environment, keys of `env:`, `env_file` and `headers:`, fields of the agent file.
SECRET_NAMES_VARIABLE = "HOLODECK_LSP_SECRET_NAMES"
# Mappings whose values may be credentials whatever their names: a server's environment and
# the headers sent to it. A value there is a secret by its name or by its shape.
SECRET_MAPPINGS = frozenset({"env", "headers"})
# `Bearer xyz`, `Basic xyz`, `Token xyz`: the scheme is not part of the secret.
_SCHEME = re.compile(r"(?i)^(bearer|basic|token|apikey)\s+(\S+)$")
# A generated key or token: one long word mixing upper case, lower case and digits (an API
# key, a JWT, a base64 secret), not a path or a URL. Names and settings rarely are.
_RANDOM_WORD = re.compile(r"(?=\S*[a-z])(?=\S*[A-Z])(?=\S*[0-9])(?![/.~])(?!\S*://)\S{20,}")


@dataclass(frozen=True)
class SecretNames:
    """Which names hold secrets: those named like credentials, and those the user lists."""

    listed: frozenset[str] = frozenset()

    @classmethod
    def of(cls, env: Mapping[str, str]) -> SecretNames:
        raw = env.get(SECRET_NAMES_VARIABLE, "")
        return cls(frozenset(n.casefold() for n in re.split(r"[\s,]+", raw) if n))

    def secret(self, name: str) -> bool:
        return SECRET_NAME.search(name) is not None or name.casefold() in self.listed


CREDENTIAL_NAMES = SecretNames()


def credential_shaped(value: str) -> bool:
    """A value that is a credential whatever it is called: a scheme and a credential
    (`Bearer ...`), or a generated key."""
    value = value.strip()
    return _SCHEME.match(value) is not None or _RANDOM_WORD.fullmatch(value) is not None


def value_secrets(value: str) -> list[str]:
    """A secret value, the credential after its scheme word, and the credentials of a URL."""
    found = [value]
    scheme = _SCHEME.match(value.strip())
    if scheme is not None:
        found.append(scheme.group(2))
    if "://" in value:
        found += url_credentials(value)
    return found


def mapping_secrets(
    values: Mapping[str, str], names: SecretNames = CREDENTIAL_NAMES, shapes: bool = False
) -> list[str]:
    """The secret values of a mapping: those whose names hold secrets, with ``shapes``
    those shaped like credentials too, and the credentials of URLs."""
    found: list[str] = []
    for name, value in values.items():
        if not isinstance(value, str) or not value:
            continue
        if names.secret(str(name)) or (shapes and credential_shaped(value)):
            found += value_secrets(value)
        elif "://" in value:
            found += url_credentials(value)
    return found


def server_environment_secrets(values: Mapping[str, str], env: Mapping[str, str]) -> list[str]:
    """The secrets of what a stdio MCP server's environment gets from its `env_file` and
    `env:` (under the names and the shapes of secrets; the shell's ``env`` says which
    names the user lists)."""
    return mapping_secrets(values, SecretNames.of(env), shapes=True)


def environment_secrets(env: Mapping[str, str]) -> list[str]:
    """Values of variables named like credentials (`OPENAI_API_KEY`, `..._TOKEN`, ...) or
    listed in `HOLODECK_LSP_SECRET_NAMES`, and the credentials of URL-valued ones
    (`OPENAI_BASE_URL=https://user:pass@...`)."""
    return mapping_secrets(env, SecretNames.of(env))


def config_secrets(config: Any, names: SecretNames = CREDENTIAL_NAMES) -> list[str]:
    """Every secret of a configuration object (an agent, a model block, a tool)."""
    found: list[str] = []
    seen: set[int] = set()

    def walk(item: Any, name: str = "") -> None:
        if isinstance(item, SecretStr):
            found.extend(value_secrets(item.get_secret_value()))
            return
        if isinstance(item, str):
            if names.secret(name):
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
            found.extend(mapping_secrets(strings, names, shapes=name in SECRET_MAPPINGS))
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


# Fields whose values the report carries as names (a tool's, a model's, a test case's, a
# metric's, a grader's) and the file paths an agent file writes.
NAME_FIELDS = frozenset(
    {
        "name", "metric", "grader", "function", "allowed_tools", "disallowed_tools",
        "expected_tools", "embedding_model", "fallback_model", "reranker_model",
        "context_model", "file", "path", "source", "prompt_file", "test_cases_file",
        "env_file",
    }
)  # fmt: skip


def carried_names(config: Any) -> set[str]:
    """The names and file paths a configuration object (an agent) writes, test cases
    included; never a value of a secret field or of an `env:` or `headers:` mapping."""
    found: set[str] = set()
    seen: set[int] = set()

    def walk(item: Any, name: str) -> None:
        if isinstance(item, str):
            if name in NAME_FIELDS:
                found.add(item)
            return
        if id(item) in seen or name in SECRET_MAPPINGS or SECRET_NAME.search(name):
            return
        seen.add(id(item))
        if isinstance(item, BaseModel):
            for field in type(item).model_fields:
                walk(getattr(item, field, None), field)
        elif isinstance(item, Mapping):
            for key, child in item.items():
                walk(child, str(key))
        elif isinstance(item, (list, tuple)):
            for child in item:
                walk(child, name)

    walk(config, "")
    return found


def register_agent(secrets: Secrets, agent: Any, env: Mapping[str, str]) -> None:
    """The agent file's secrets into the run's registry, and the names its report carries,
    to which those secrets yield (`Secrets.carry`)."""
    secrets.add_all(config_secrets(agent, SecretNames.of(env)), agent_file=True)
    secrets.carry(carried_names(agent))
