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


# HoloDeck's planned workflows (spec 036: `workflow.yaml`, `tables/*.dmn.yaml`) are not
# agents, whatever keys they share with one: never recognised by their content.
NOT_SUITE_PATTERNS = ("workflow.yaml", "workflow.yml", "*.dmn.yaml", "*.dmn.yml")
# Keys only a HoloDeck test case has: a list whose items all take `input` is another
# tool's data set (Inspect's `target`, promptfoo's `vars`) unless it is HoloDeck's.
_CASE_FIELDS = frozenset(
    ("name", "input", "ground_truth", "expected_tools", "files", "retrieval_context",
     "evaluations", "turns")
)
_HOLODECK_ONLY_CASE_FIELDS = _CASE_FIELDS - {"name", "input"}


def looks_like_suite(data: object, path: PurePath) -> bool:
    """Content recognition: an agent or a test-case file, whatever its name.

    Narrow on purpose, as editors give the server every YAML file: an agent is a mapping
    with `name`, `model` and HoloDeck's `instructions` (`inline:` or `file:`; a Semantic
    Kernel or Foundry agent has a string there), or one that names a `test_cases_file`,
    or holds `test_cases` that read as HoloDeck's; test cases are a list of mappings that
    each take `input` or `turns` and use HoloDeck's fields only, or one HoloDeck alone has.
    """
    if matches_patterns(path, NOT_SUITE_PATTERNS):
        return False
    if isinstance(data, dict):
        if "test_cases_file" in data:
            return True
        if _look_like_cases(data.get("test_cases")):
            return True
        instructions = data.get("instructions")
        return (
            {"name", "model"} <= set(data)
            and isinstance(instructions, dict)
            and bool({"inline", "file"} & set(instructions))
        )
    return _look_like_cases(data)


def _look_like_cases(data: object) -> bool:
    if not isinstance(data, list) or not data:
        return False
    if not all(isinstance(x, dict) and ("input" in x or "turns" in x) for x in data):
        return False
    keys = {k for x in data for k in x}
    return keys <= _CASE_FIELDS or bool(keys & _HOLODECK_ONLY_CASE_FIELDS)


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
