"""Error types raised by model validators.

Each validator raises a ``PydanticCustomError`` whose type is one of these names, so
the diagnostics layer can give it a stable code and, from its context, an exact range.
"""

import re
from typing import Any

from pydantic_core import PydanticCustomError

# Custom error types (the first argument of PydanticCustomError) raised by our models.
EMPTY_STRING = "hl_empty_string"
TURNS_CONFLICT = "hl_turns_conflict"
TURNS_EMPTY = "hl_turns_empty"
MISSING_INPUT = "hl_missing_input"
EXPECTED_TOOL_ENTRY = "hl_expected_tool_entry"
EXPECTED_TOOL_NAME = "hl_expected_tool_name"
EXPECTED_TOOL_COUNT = "hl_expected_tool_count"
ARGS_NOT_MAPPING = "hl_args_not_mapping"
MATCHER_BOTH = "hl_matcher_both"
MATCHER_EXTRA_KEYS = "hl_matcher_extra_keys"
MATCHER_PATTERN_TYPE = "hl_matcher_pattern_type"
REGEX_COMPILE = "hl_regex_compile"
GRADER_FORMAT = "hl_grader_format"
TOO_MANY = "hl_too_many"
DUPLICATE_TOOL_NAMES = "hl_duplicate_tool_names"
MUTUALLY_EXCLUSIVE = "hl_mutually_exclusive"
REQUIRES_ONE_OF = "hl_requires_one_of"


def fail(error_type: str, message: str, /, **context: Any) -> PydanticCustomError:
    """Build the error a validator raises; ``message`` may use ``{name}`` context keys."""
    return PydanticCustomError(error_type, message, context or None)


def require_text(value: str | None, field: str) -> str | None:
    """HoloDeck's rule for optional text fields: absent is fine, blank is not."""
    if value is not None and not value.strip():
        raise fail(EMPTY_STRING, "{field} must not be empty or whitespace", field=field)
    return value


def regex_problem(pattern: str) -> tuple[str, int | None] | None:
    """Why ``pattern`` does not compile in `re` (the reason, and the character it points at),
    or None. `re`'s parser recurses once per group: groups nested a few hundred deep raise
    RecursionError there, in HoloDeck too, so they do not compile either."""
    try:
        re.compile(pattern)
    except re.error as exc:
        return str(exc.msg) + (f" at position {exc.pos}" if exc.pos is not None else ""), exc.pos
    except RecursionError:
        return "its groups nest too deeply for Python's re", None
    return None
