"""Which prompt a run used, as HoloDeck 0.7.1 names it (`holodeck/lib/prompt_version.py`):
the instructions file's frontmatter (`version`, `author`, `description`, `tags`, the other
keys kept as `extra`) and the SHA-256 of its body, the frontmatter left out; an inline
prompt is hashed whole. A prompt without `version:` is `auto-` and the hash's first 8
characters.

The frontmatter is found and split as the `python-frontmatter` package HoloDeck uses does
it: the text (newlines made `\\n`, as a file read in text mode) stripped of surrounding
white space; a first line of three or more `-` opens YAML, read with PyYAML's safe loader,
a first line `{` opens JSON; the body is what follows the closing line, stripped. Text
that opens frontmatter without closing it is all body. Unlike HoloDeck, a frontmatter
whose values would expand past a budget (aliases), or too long to parse in a moment, is
refused, not expanded.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from holodeck_lsp.models.eval_run import PromptVersion
from holodeck_lsp.models.instructions import Instructions
from holodeck_lsp.named_files import MAX_NAMED_BYTES, NotReadable, read_text
from holodeck_lsp.nesting import loads

_YAML_FENCE = re.compile(r"^-{3,}\s*$", re.MULTILINE)
_JSON_FENCE = re.compile(r"^(?:{|})$", re.MULTILINE)
_RECOGNISED = frozenset({"version", "author", "description", "tags"})
# Values a frontmatter may hold once its aliases are expanded (a prompt's metadata is a few).
_VALUE_BUDGET = 10_000
_FRONTMATTER_CHARACTERS = 1_000_000  # PyYAML's pure-Python parser: seconds past this


class PromptVersionError(Exception):
    """The prompt's version cannot be told; the message says why (HoloDeck would not keep
    the run either)."""


def prompt_version(instructions: Instructions, agent_file: Path) -> PromptVersion:
    """The prompt version of an agent's instructions; raises PromptVersionError."""
    if instructions.inline is not None:
        digest = _sha256(instructions.inline)
        return PromptVersion(version=f"auto-{digest[:8]}", source="inline", body_hash=digest)
    if instructions.file is None:
        raise PromptVersionError("the agent has no instructions (file or inline)")
    path = agent_file.resolve().parent / instructions.file
    try:
        text = read_text(path, MAX_NAMED_BYTES)
    except NotReadable as exc:
        why = "does not exist" if exc.problem == "missing" else exc.reason
        raise PromptVersionError(f"cannot read the instructions file {path}: it {why}") from None
    metadata, body = split_frontmatter(text, path)
    digest = _sha256(body)
    recognised = {k: v for k, v in metadata.items() if k in _RECOGNISED}
    extra = {k: v for k, v in metadata.items() if k not in _RECOGNISED}
    try:
        version = PromptVersion(
            version=str(recognised.get("version") or f"auto-{digest[:8]}"),
            author=recognised.get("author"),
            description=recognised.get("description"),
            tags=list(recognised.get("tags") or []),
            source="file",
            file_path=str(path),
            body_hash=digest,
            extra=extra,
        )
        # As HoloDeck writes it: JSON, any other value as its str() (a date, a set).
        return version.model_copy(update={"extra": loads(json.dumps(extra, default=str))})
    except (ValidationError, TypeError, ValueError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise PromptVersionError(
            f"the frontmatter of {path} is not a prompt version: {reason}"
        ) from None


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def split_frontmatter(text: str, path: Path) -> tuple[dict[Any, Any], str]:
    """The frontmatter's mapping (empty when it has none or is not a mapping) and the body;
    raises PromptVersionError for frontmatter that does not parse."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    for fence, load in ((_YAML_FENCE, _yaml), (_JSON_FENCE, _json)):
        if not fence.match(text):
            continue
        parts = fence.split(text, 2)
        if len(parts) < 3:
            return {}, text
        _, head, body = parts
        if fence is _JSON_FENCE:
            head = "{" + head + "}"
        data = load(head, path)
        return (data if isinstance(data, dict) else {}), body.strip()
    return {}, text


def _yaml(text: str, path: Path) -> Any:
    if len(text) > _FRONTMATTER_CHARACTERS:
        raise PromptVersionError(
            f"the frontmatter of {path} has over {_FRONTMATTER_CHARACTERS:,} characters"
        )
    try:
        data = yaml.load(text, Loader=yaml.SafeLoader)  # as HoloDeck: the pure-Python safe loader
        expanded = _values(data, [0])
    except yaml.YAMLError as exc:
        raise PromptVersionError(f"malformed YAML frontmatter in {path}: {exc}") from None
    except RecursionError:
        raise PromptVersionError(f"the frontmatter of {path} is nested too deeply") from None
    if expanded > _VALUE_BUDGET:
        raise PromptVersionError(
            f"the frontmatter of {path} expands to over {_VALUE_BUDGET:,} values (aliases)"
        )
    return data


def _json(text: str, path: Path) -> Any:
    try:
        return loads(text)
    except (ValueError, RecursionError) as exc:
        raise PromptVersionError(f"malformed JSON frontmatter in {path}: {exc}") from None


def _values(value: Any, seen: list[int]) -> int:
    """How many values ``value`` holds once every alias is expanded, counted up to just
    past the budget (an alias bomb is a small graph with an enormous expansion)."""
    seen[0] += 1
    if seen[0] > _VALUE_BUDGET:
        return seen[0]
    children = (
        [*value.keys(), *value.values()] if isinstance(value, dict)
        else value if isinstance(value, (list, tuple, set)) else ()
    )
    for child in children:
        if _values(child, seen) > _VALUE_BUDGET:
            break
    return seen[0]
