"""What kind of HoloDeck file a document is: the one home of that decision.

`check` (folder scans and named files), the language server (which open buffers it
validates, before and after a parse) and the validation itself ask here.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable
from pathlib import PurePath
from typing import Any, Literal

Kind = Literal["agent", "test-cases", "config"]

# In the order HoloDeck looks for them: `config.yml` wins when both exist.
CONFIG_FILE_NAMES = ("config.yml", "config.yaml")
DEFAULT_PATTERNS = ("agent.yaml", "agent.yml", "*.agent.yaml", "*.agent.yml")
YAML_SUFFIXES = (".yaml", ".yml")


def is_config_file(path: PurePath) -> bool:
    return path.name in CONFIG_FILE_NAMES


def matches_patterns(path: PurePath, patterns: Iterable[str]) -> bool:
    """A name pattern (`agent.yaml`) matches the file name; a path pattern the whole path."""
    text = path.as_posix()
    for pattern in patterns:
        bare = pattern.removeprefix("**/")
        if "/" in bare:
            if fnmatch.fnmatch(text, pattern) or fnmatch.fnmatch(text, "*/" + bare):
                return True
        elif fnmatch.fnmatch(path.name, bare):
            return True
    return False


def looks_like_suite(data: object) -> bool:
    """Content recognition: an agent or a test-case file, whatever its name."""
    if isinstance(data, dict):
        if "test_cases" in data or "test_cases_file" in data:
            return True
        return {"name", "model", "instructions"} <= set(data)
    if isinstance(data, list) and data:
        return all(isinstance(x, dict) and ("input" in x or "turns" in x) for x in data)
    return False


def kind_of_data(path: PurePath, data: Any) -> Kind:
    """How an explicitly named, parsed file is validated: a config file by its name, a list
    of test cases (or a mapping of `test_cases` alone) as test cases, anything else as an
    agent."""
    if is_config_file(path):
        return "config"
    if isinstance(data, list) or (isinstance(data, dict) and set(data) == {"test_cases"}):
        return "test-cases"
    return "agent"


def kind_of_text(path: PurePath, text: str) -> Kind:
    """The same decision for a document that may not parse: top-level lines only."""
    if is_config_file(path):
        return "config"
    top_keys = set()
    for line in text.split("\n"):
        if not line.strip() or line.lstrip().startswith(("#", "%", "---")):
            continue
        if line.startswith("- ") or line.rstrip() == "-":
            return "test-cases"
        if not line[0].isspace() and ":" in line:
            top_keys.add(line.split(":", 1)[0].strip())
    return "test-cases" if top_keys == {"test_cases"} else "agent"
