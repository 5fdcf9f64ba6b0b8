"""Secrets never leave the process: the run's one registry of secret values (`Secrets`),
and the masking every artefact writer (reports, recordings, events, stdout, stderr) applies
to values before it escapes or cuts them.

Masking the values first is what makes it hold: a writer that escapes `&` as `&amp;` or
cuts a text at 300 characters no longer hides a secret from the masker. As a last line,
the masker also recognises each secret in every encoding a writer uses (JSON, HTML and XML
escaping, Markdown backslash escaping, URL percent-encoding, and one of these inside
another), and it is run once more on each rendered text.
"""

from __future__ import annotations

import contextlib
import dataclasses
import html
import json
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO, TypeVar
from urllib.parse import quote, quote_plus

from pydantic import BaseModel

from holodeck_lsp.hygiene.clipping import MASK, clip
from holodeck_lsp.hygiene.controls import visible
from holodeck_lsp.validation.env_refs import ENV_REF

__all__ = [
    "MASK",
    "Secrets",
    "TerminalStream",
    "activated",
    "active",
    "encoded_forms",
    "map_strings",
]

# Shorter values would mask ordinary words; real keys are far longer.
MIN_SECRET = 6
# A credential as a header or a field, in any text a service may echo back. Left alone:
# a value masked already (ours, or HoloDeck's `***` in a kept run's configuration), and a
# `${VAR}` reference as the whole value (an agent file's line as written: a name, not a
# secret).
_CREDENTIAL = re.compile(
    r"""(?ix)
    (?P<name>\b(?:authorization|proxy-authorization|x-api-key|api-key|api_key|apikey)
    ["']?\s*[:=]\s*["']?
    (?!(?:(?:bearer|basic|token)\s+)?(?:"""
    + re.escape(MASK)
    + "|(?:\\*{3}|"
    + ENV_REF.pattern
    + r""")(?:[\s"',;}\]\\]|$)))
    (?:(?:bearer|basic|token)\s+)?)
    [^\s"',;}\]\\]+
    """
)
_BEARER = re.compile(r"(?i)\b(bearer\s+)([A-Za-z0-9._~+/=-]{8,})")
# Words either pattern needs: most texts have none, and a substring test is far cheaper
# than the patterns on a report of thousands of turns.
_CUES = ("authorization", "api-key", "api_key", "apikey", "bearer")
# Every punctuation character CommonMark lets a backslash escape.
_MARKDOWN_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")

M = TypeVar("M", bound=BaseModel)


def _xml_attribute(text: str) -> str:
    """As ElementTree writes an attribute value (`'` is left as it is)."""
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("\n", "&#10;")
    )


# The encodings the writers (and the libraries they use) put a value through.
_ENCODINGS: tuple[Callable[[str], str], ...] = (
    lambda s: json.dumps(s)[1:-1],
    lambda s: json.dumps(s, ensure_ascii=False)[1:-1],
    lambda s: html.escape(s, quote=True),
    lambda s: html.escape(s, quote=False),
    lambda s: html.escape(s, quote=True).replace("&#x27;", "&#39;").replace("&quot;", "&#34;"),
    _xml_attribute,
    lambda s: _MARKDOWN_PUNCTUATION.sub(r"\\\1", s),
    lambda s: s.replace("|", "\\|"),
    lambda s: quote(s, safe=""),
    lambda s: quote_plus(s, safe=""),
    lambda s: quote(s),
)


def encoded_forms(secret: str) -> set[str]:
    """``secret`` as written, in each encoding, and in each encoding of each encoding."""
    once = {secret} | {encode(secret) for encode in _ENCODINGS}
    return once | {encode(form) for form in once for encode in _ENCODINGS}


class Secrets:
    """The secret values of one run, and the masker of every text and value it writes.

    A value taken from the agent file yields to the names its report carries (`carry`): one
    that is a tool's, a model's, a test case's or a metric's name, or a file path the agent
    file writes, or part of one, is left alone, since the report shows it as that name
    anyway. A value from the environment or from a request never yields."""

    def __init__(self, values: Iterable[str | None] = ()) -> None:
        self._values: dict[str, bool] = {}  # value -> whether it yields to a name
        self._carried: set[str] = set()  # names the report carries, the agent file's
        self._forms: list[str] = []  # every encoded form, longest first
        self.add_all(values)

    def add(self, value: str | None, *, agent_file: bool = False) -> None:
        """Register ``value``; ``agent_file``: it was read from the agent file (it yields
        to a name)."""
        if not value:
            return
        value = value.strip()
        if len(value) < MIN_SECRET or ENV_REF.fullmatch(value):
            return  # a `${VAR}` left unset (a replay) is a name, not a secret
        if value in self._values:
            self._values[value] = self._values[value] and agent_file
            return
        if agent_file and self._in_a_name(value):
            return
        self._values[value] = agent_file
        forms = set(self._forms) | {f for f in encoded_forms(value) if len(f) >= MIN_SECRET}
        # Longest first: a form that contains another is masked whole.
        self._forms = sorted(forms, key=len, reverse=True)

    def add_all(self, values: Iterable[str | None], *, agent_file: bool = False) -> None:
        for value in values:
            self.add(value, agent_file=agent_file)

    def carry(self, names: Iterable[str]) -> None:
        """Names the report carries, as the agent file wrote them (a URL is none: its
        credentials are secrets): a value of the agent file equal to one, or part of one,
        is no longer masked."""
        self._carried.update(n for n in names if len(n) >= MIN_SECRET and "://" not in n)
        dropped = {v for v, yields in self._values.items() if yields and self._in_a_name(v)}
        if dropped:
            self._values = {v: y for v, y in self._values.items() if v not in dropped}
            forms = {f for v in self._values for f in encoded_forms(v) if len(f) >= MIN_SECRET}
            self._forms = sorted(forms, key=len, reverse=True)

    def _in_a_name(self, value: str) -> bool:
        return any(value in name for name in self._carried)

    def mask(self, text: str) -> str:
        """``text`` with every secret, in any encoding, and anything shaped like a
        credential header replaced by the mask; the same object when nothing is."""
        for form in self._forms:
            if form in text:
                text = text.replace(form, MASK)
        lowered = text.lower()
        if not any(cue in lowered for cue in _CUES):
            return text
        text = _CREDENTIAL.sub(lambda m: m.group("name") + MASK, text)
        return _BEARER.sub(lambda m: m.group(1) + MASK, text)

    def touches(self, text: str) -> bool:
        """Whether masking could change anything in ``text`` (a few substring scans)."""
        if any(form in text for form in self._forms):
            return True
        lowered = text.lower()
        return any(cue in lowered for cue in _CUES)

    def clip(self, text: str, limit: int, tail: str = "...") -> str:
        """Masked, then cut to ``limit`` characters (never leaving part of a mask)."""
        return clip(self.mask(text), limit, tail)

    def mask_data(self, value: Any) -> Any:
        """A JSON-like value (dicts, lists, strings, models) with every string masked, keys
        too; the same object when nothing in it changed."""
        return map_strings(value, self.mask, self._untouched)

    def mask_model(self, model: M, touched: bool = False) -> M:
        """A copy of ``model`` with every string inside it masked (``model`` itself when
        nothing changed); ``touched``: its JSON is known to hold something to mask."""
        return (
            model
            if not touched and self._untouched(model)
            else _map_fields(model, self.mask, self._untouched)
        )

    def _untouched(self, model: BaseModel) -> bool:
        # Its JSON, made by pydantic's compiled core, holds every string (JSON-escaped, a
        # form the masker knows): a report of thousands of turns is mostly left alone
        # after a few scans, and only the parts with something to mask are walked.
        try:
            return not self.touches(model.model_dump_json(warnings=False))
        except ValueError:  # a lone surrogate, which JSON in UTF-8 cannot hold: walk it
            return False


def map_strings(
    value: Any, change: Callable[[str], str], skip: Callable[[BaseModel], bool] = lambda m: False
) -> Any:
    """``value`` (strings, dicts, lists, tuples, models, dataclasses) with ``change`` applied
    to every string, keys too; the same object where nothing changed; models ``skip`` says
    hold nothing to change are left as they are."""
    if isinstance(value, str):
        return change(value)
    if isinstance(value, dict):
        items = [
            (map_strings(k, change, skip), map_strings(v, change, skip)) for k, v in value.items()
        ]
        if all(k is a and v is b for (k, v), (a, b) in zip(items, value.items(), strict=True)):
            return value
        return dict(items)
    if isinstance(value, (list, tuple)):
        changed = [map_strings(item, change, skip) for item in value]
        if all(c is item for c, item in zip(changed, value, strict=True)):
            return value
        return type(value)(changed) if isinstance(value, tuple) else changed
    if isinstance(value, BaseModel):
        return value if skip(value) else _map_fields(value, change, skip)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        mapped = {name: map_strings(item, change, skip) for name, item in fields.items()}
        if all(mapped[name] is item for name, item in fields.items()):
            return value
        return dataclasses.replace(value, **mapped)
    return value


def _map_fields(model: M, change: Callable[[str], str], skip: Callable[[BaseModel], bool]) -> M:
    updated = {}
    for name in type(model).model_fields:
        item = getattr(model, name)
        if item is None or isinstance(item, (bool, int, float)):
            continue
        changed = map_strings(item, change, skip)
        if changed is not item:
            updated[name] = changed
    return model.model_copy(update=updated) if updated else model


_active = Secrets()


def active() -> Secrets:
    """The registry of the run in progress (an empty one outside a run): what code far
    from the run's writers (a client's error excerpt, an MCP server's environment) masks
    with and adds to."""
    return _active


@contextlib.contextmanager
def activated(secrets: Secrets) -> Iterator[Secrets]:
    global _active
    previous, _active = _active, secrets
    try:
        yield secrets
    finally:
        _active = previous


class TerminalStream:
    """A stream of text for a person: every write masked, control characters shown as
    escapes (a name or a reply cannot retitle the window or reach the clipboard)."""

    def __init__(self, inner: TextIO, secrets: Secrets) -> None:
        self._inner = inner
        self._secrets = secrets

    def write(self, text: str) -> int:
        return self._inner.write(visible(self._secrets.mask(text)))

    def styled(self) -> TextIO:
        """The stream for a writer that emits its own escape sequences (the live progress
        bar) and escapes the text it prints: masked, control characters kept."""
        return _MaskingStream(self._inner, self._secrets)  # type: ignore[return-value]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def terminal_stream(stream: TextIO, secrets: Secrets) -> TextIO:
    """``stream`` for a person: masked, control characters shown as escapes."""
    return TerminalStream(stream, secrets)  # type: ignore[return-value]


class _MaskingStream:
    def __init__(self, inner: TextIO, secrets: Secrets) -> None:
        self._inner = inner
        self._secrets = secrets

    def write(self, text: str) -> int:
        return self._inner.write(self._secrets.mask(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)
