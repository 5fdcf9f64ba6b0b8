"""Secrets never leave the process: API keys and credential headers are masked in every
text the runner stores or prints (reports, recordings, stdout, stderr)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any, TextIO

from pydantic import BaseModel, SecretStr

MASK = "[REDACTED]"
# Shorter values would mask ordinary words; real keys are far longer.
MIN_SECRET = 6
_SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD)$", re.IGNORECASE)
# A credential as a header or a field, in any text a service may echo back.
_CREDENTIAL = re.compile(
    r"""(?ix)
    \b(authorization|proxy-authorization|x-api-key|api-key|api_key|apikey)
    (["']?\s*[:=]\s*["']?)
    ((?:bearer|basic|token)\s+)?
    ([^\s"',;}\]\\]+)
    """
)
_BEARER = re.compile(r"(?i)\b(bearer\s+)([A-Za-z0-9._~+/=-]{8,})")
# Words either pattern needs: most texts have none, and a substring test is far cheaper
# than the patterns on a report of thousands of turns.
_CUES = ("authorization", "api-key", "api_key", "apikey", "bearer")


def model_secrets(value: Any) -> list[str]:
    """Every `SecretStr` inside a configuration object (api keys of every model block)."""
    found: list[str] = []
    seen: set[int] = set()

    def walk(item: Any) -> None:
        if isinstance(item, SecretStr):
            found.append(item.get_secret_value())
            return
        if id(item) in seen:
            return
        seen.add(id(item))
        if isinstance(item, BaseModel):
            children: Iterable[Any] = (getattr(item, n, None) for n in type(item).model_fields)
        elif isinstance(item, Mapping):
            children = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            return
        for child in children:
            # Only what can hold a secret: a suite's thousands of strings are skipped here.
            if child is not None and not isinstance(child, (str, int, float)):
                walk(child)

    walk(value)
    return found


def environment_secrets(env: Mapping[str, str]) -> list[str]:
    """Values of variables named like credentials (`OPENAI_API_KEY`, `..._TOKEN`, ...)."""
    return [value for name, value in env.items() if _SECRET_NAME.search(name) and value]


class Redactor:
    """Masks known secret values and anything shaped like a credential header."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self._secrets: set[str] = set()
        self.add(secrets)

    def add(self, secrets: Iterable[str]) -> None:
        for secret in secrets:
            secret = secret.strip()
            if len(secret) >= MIN_SECRET:
                self._secrets.add(secret)
                # As it appears inside a JSON string (a report or a recording).
                self._secrets.add(json.dumps(secret)[1:-1])

    def __call__(self, text: str) -> str:
        # Longest first: a key that contains another is masked whole.
        for secret in sorted(self._secrets, key=len, reverse=True):
            if secret in text:
                text = text.replace(secret, MASK)
        lowered = text.lower()
        if not any(cue in lowered for cue in _CUES):
            return text
        text = _CREDENTIAL.sub(_mask_credential, text)
        return _BEARER.sub(lambda m: m.group(1) + MASK, text)


def _mask_credential(match: re.Match[str]) -> str:
    if match.group(4) == MASK or match.group(4).startswith(MASK):
        return match.group(0)
    return match.group(1) + match.group(2) + (match.group(3) or "") + MASK


class RedactingStream:
    """A text stream that masks secrets in everything written to it."""

    def __init__(self, inner: TextIO, redact: Redactor) -> None:
        self._inner = inner
        self._redact = redact

    def write(self, text: str) -> int:
        return self._inner.write(self._redact(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)
