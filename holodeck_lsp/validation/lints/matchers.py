"""Argument matchers HoloDeck accepts but that cannot match what the author meant: an
empty `regex` or `fuzzy` pattern (HL407), and a one-key mapping in another tool's
vocabulary (`{equals: 3}`, `{startswith: "Par"}`, `{regx: "^a"}`, HL408), which HoloDeck
compares as a literal mapping that no argument the model sends ever equals; and a regex
that can take exponential time (HL406)."""

from __future__ import annotations

import re
from typing import Any

from holodeck_lsp.models.test_case import MATCHER_KEYS
from holodeck_lsp.validation.collector import Collector
from holodeck_lsp.validation.lints.regex_verdicts import backtracks
from holodeck_lsp.validation.yaml.source_map import YamlPath

# Other test tools' words for a comparison, by the HoloDeck matcher that writes it. Only
# words no tool's own argument object is likely to use as a key: a literal mapping with
# such a key is compared as written, and a warning on it would be wrong.
_LITERAL = frozenset({"equals", "equal", "eq", "exact", "exactly"})
_PREFIX = frozenset({"startswith", "starts_with", "beginswith", "begins_with"})
_SUFFIX = frozenset({"endswith", "ends_with"})
_CONTAINS = frozenset({"contains"})
_REGEX = frozenset({"regexp", "matches"})
_FUZZY = frozenset({"iequals", "equals_ignore_case"})


BACKTRACKING = (
    "this regex can backtrack exponentially: a repetition in it can match the same text in "
    "more than one way (as in `(a+)+` or `(a|a)*`), so a value that almost matches makes "
    "`re` try every way; `run` gives up on such a match at its time limit"
)


def matcher_rules(at: YamlPath, matcher: dict[Any, Any], collector: Collector) -> None:
    """One asserted argument written as a one-key mapping, at ``at``."""
    ((key, pattern),) = matcher.items()
    if key in MATCHER_KEYS:
        if isinstance(pattern, str) and not (pattern.strip() if key == "fuzzy" else pattern):
            collector.emit(
                (*at, key),
                "HL407",
                f"an empty {key} pattern matches only an empty "
                + ("or blank value" if key == "fuzzy" else "value"),
            )
        elif key == "regex" and isinstance(pattern, str) and backtracks(pattern):
            collector.emit((*at, key), "HL406", BACKTRACKING)
        return
    meant = _meant(key, pattern) if isinstance(key, str) else None
    if meant is None:
        return
    collector.emit(
        (*at, key),
        "HL408",
        f"{{{key}: ...}} is no HoloDeck matcher: the argument is compared with this mapping "
        f"as a literal, which it never equals; did you mean {meant}?",
        part="key",
    )


def _meant(key: str, pattern: Any) -> str | None:
    """The HoloDeck matcher another tool's ``{key: pattern}`` stands for, or None."""
    word = key.strip().lower().replace("-", "_")
    text = pattern if isinstance(pattern, str) else None
    if word in _LITERAL:
        return f"the value alone ({_shown(pattern)})"
    if word in _REGEX or _one_edit_from(word, "regex"):
        return f"{{regex: {_shown(pattern)}}}"
    if word in _FUZZY or _one_edit_from(word, "fuzzy"):
        return f"{{fuzzy: {_shown(pattern)}}}"
    if text is None:
        return None
    if word in _PREFIX:
        return f"{{regex: {_shown(re.escape(text) + '.*')}}}"
    if word in _SUFFIX:
        return f"{{regex: {_shown('.*' + re.escape(text))}}}"
    if word in _CONTAINS:
        return f"{{regex: {_shown('.*' + re.escape(text) + '.*')}}}"
    return None


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value).lower() if isinstance(value, bool) else repr(value)


def _one_edit_from(word: str, target: str) -> bool:
    """A typo of ``target``: one letter dropped, added, changed or two swapped."""
    if word == target or abs(len(word) - len(target)) > 1:
        return False
    if len(word) == len(target):
        diff = [i for i, (a, b) in enumerate(zip(word, target, strict=True)) if a != b]
        swapped = len(diff) == 2 and diff[1] == diff[0] + 1 and (
            word[diff[0]] == target[diff[1]] and word[diff[1]] == target[diff[0]]
        )
        return len(diff) == 1 or swapped
    short, long = sorted((word, target), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))
