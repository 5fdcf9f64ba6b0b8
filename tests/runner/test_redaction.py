"""The masker's pieces: encodings it recognises, cuts that leave no part of a mask, URLs
printed without credentials, and where the registry finds secrets in a configuration."""

from __future__ import annotations

import html
import json
from urllib.parse import quote

import pytest

from holodeck_lsp.hygiene.clipping import MASK, clip
from holodeck_lsp.hygiene.markdown import code_span
from holodeck_lsp.models.agent import Agent
from holodeck_lsp.runner.services.redaction import Secrets
from holodeck_lsp.runner.services.secret_sources import (
    SECRET_NAMES_VARIABLE,
    SecretNames,
    carried_names,
    config_secrets,
    environment_secrets,
)
from holodeck_lsp.runner.services.service_targets import join_url, public_url, url_credentials

SECRET = "Qz7&vK<p9>Lm\"Wx'Rt|Ny4&Hb<Jc"


@pytest.mark.parametrize(
    "shown",
    [
        SECRET,
        json.dumps(SECRET)[1:-1],
        html.escape(SECRET),
        html.escape(json.dumps(SECRET)[1:-1]),  # JSON shown in an HTML page
        SECRET.replace("|", "\\|"),
        quote(SECRET, safe=""),
    ],
)
def test_a_secret_is_recognised_in_every_encoding_of_a_rendered_text(shown: str) -> None:
    assert Secrets([SECRET]).mask(f"<td>key={shown};</td>") == f"<td>key={MASK};</td>"


def test_a_cut_inside_a_mask_drops_the_mask_whole() -> None:
    text = "x" * 20 + MASK + "y" * 20
    assert [clip(text, limit) for limit in (22, 26, 33, 40)] == [
        "x" * 19 + "...",
        "x" * 20 + "...",  # "[REDA" would have been left
        "x" * 20 + MASK + "...",
        "x" * 20 + MASK + "y" * 7 + "...",
    ]
    assert Secrets([SECRET]).clip("k=" + SECRET + " and more", 10) == "k=..."


def test_model_text_is_one_code_span_whatever_its_backticks() -> None:
    assert code_span("a `b` c") == "``a `b` c``"
    assert code_span("`x`") == "`` `x` ``"
    assert code_span("![i](http://evil)\n\n# title") == "`![i](http://evil) # title`"
    assert code_span("\x1b]0;t\x07") == "`\\x1b]0;t\\x07`"


def test_urls_keep_their_query_last_and_are_printed_without_credentials() -> None:
    base = "https://user:p%26ss@host/v1?token=t%3C1&api-version=2024"
    assert join_url(base, "/chat/completions") == (
        "https://user:p%26ss@host/v1/chat/completions?token=t%3C1&api-version=2024"
    )
    assert public_url(join_url(base, "/chat/completions")) == (
        f"https://{MASK}@host/v1/chat/completions?token={MASK}&api-version={MASK}"
    )
    assert sorted(url_credentials(base)) == ["p%26ss", "p&ss", "t%3C1", "t<1", "user"]


KEY = "k3Yq9ZpW7mXr2TbV5nLc8HdJ"  # generated, named like nothing secret


def _agent() -> Agent:
    return Agent.model_validate(
        {
            "name": "a",
            "model": {"provider": "openai", "name": "m", "api_key": "sk-model-key"},
            "instructions": {"inline": "Hi."},
            "tools": [
                {
                    "name": "db",
                    "type": "mcp",
                    "description": "d",
                    "command": "npx",
                    "env": {
                        "ANY_NAME": "env-value-1",
                        "SERVICE_TOKEN": "env-token-1",
                        "FACTS_TOOL": "archive_lookup",
                        "SIGNING": KEY,
                        "PORT": "8080",
                        "DEBUG": "true",
                    },
                },
                {
                    "name": "web",
                    "type": "mcp",
                    "description": "d",
                    "transport": "http",
                    "url": "https://host/mcp?sig=url-signature",
                    "headers": {
                        "X-Custom": "Bearer header-token",
                        "X-Api-Key": "header-key-1",
                        "X-Tool": "archive_lookup",
                    },
                },
            ],
            # Test cases are data: an argument called `token` is not a secret.
            "test_cases": [
                {
                    "name": "looks facts up",
                    "input": "x",
                    "expected_tools": [{"name": "t", "args": {"token": "data-1"}}],
                }
            ],
        }
    )


def test_the_registry_reads_keys_environments_headers_and_urls_of_a_configuration() -> None:
    # Of `env:` and `headers:`, what is named like a credential or shaped like one; a
    # tool's name, a port, a flag and a plain word are settings.
    assert sorted(config_secrets(_agent())) == [
        "Bearer header-token",
        "env-token-1",
        "header-key-1",
        "header-token",
        KEY,
        "sk-model-key",
        "url-signature",
    ]
    assert environment_secrets(
        {"GITHUB_TOKEN": "ghp-1", "PWD": "/w", "OPENAI_BASE_URL": "http://u:pw@h", "HOME": "/h"}
    ) == ["ghp-1", "u", "pw"]


def test_the_user_names_more_secrets_in_the_environment() -> None:
    env = {SECRET_NAMES_VARIABLE: "any_name, DB_CONN", "DB_CONN": "db-conn-1", "HOME": "/h"}
    assert "env-value-1" in config_secrets(_agent(), SecretNames.of(env))
    assert environment_secrets(env) == ["db-conn-1"]


def test_a_secret_of_the_agent_file_yields_to_the_names_its_report_carries() -> None:
    secrets = Secrets(["fact-from-the-shell"])
    secrets.add_all(["archive_lookup", "facts up", "fact-from-the-shell", KEY], agent_file=True)
    assert {"t", "db", "web", "looks facts up", "archive_lookup"} - carried_names(_agent()) == {
        "archive_lookup"  # named in the server's environment: not the agent file's name
    }
    secrets.carry(carried_names(_agent()) | {"archive_lookup"})
    text = "archive_lookup looks facts up, fact-from-the-shell, " + KEY
    assert secrets.mask(text) == f"archive_lookup looks facts up, {MASK}, {MASK}"


@pytest.mark.parametrize(
    "line",
    [
        "api_key: ${OPENAI_API_KEY}",
        '"api_key": "${OPENAI_API_KEY}"',
        "Authorization: Bearer ${GITHUB_TOKEN}",
    ],
)
def test_a_variable_reference_is_a_name_not_a_secret(line: str) -> None:
    secrets = Secrets(["${OPENAI_API_KEY}"])
    assert secrets.mask(line) == line


@pytest.mark.parametrize(
    ("line", "masked"),
    [
        ("api_key: sk-live-123456 and", f"api_key: {MASK} and"),
        ("Authorization: Bearer abcdefghijkl", f"Authorization: Bearer {MASK}"),
        ('{"api_key": "sk-live-123456"}', f'{{"api_key": "{MASK}"}}'),
    ],
)
def test_a_credential_is_masked_once_and_stays_masked(line: str, masked: str) -> None:
    secrets = Secrets()
    assert secrets.mask(line) == masked
    assert secrets.mask(masked) == masked
