"""Mutations of what ties files and nodes together: project-config sections and the names
agents take from them, grader references, ``test_cases_file``, and YAML anchors/aliases.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from tests.differential.mutation_tree import Doc, MergeFrom, get, pick, show, show_path, walk

CONFIG_KEYS = frozenset({"providers", "vectorstores", "execution", "deployment", "mcp_servers"})

CONFIG_FRAGMENTS: list[tuple[str, str, Any]] = [
    ("providers", "openai", {"provider": "openai", "name": "gpt-4o-mini", "temperature": 0.2}),
    (
        "providers",
        "azure",
        {"provider": "azure_openai", "name": "gpt-4o", "endpoint": "https://x.azure.com"},
    ),
    ("providers", "ollama", {"provider": "ollama", "name": "llama3"}),
    ("providers", "anthropic", {"provider": "anthropic", "name": "claude-sonnet-4-5"}),
    ("vectorstores", "store", {"provider": "chromadb", "connection_string": "http://h:8000"}),
    (
        "vectorstores",
        "pg",
        {"provider": "postgresql", "connection_string": "postgresql://u:p@h/db"},
    ),
    (
        "vectorstores",
        "qd",
        {"provider": "qdrant", "connection_string": "http://h:6333", "options": {"x": 1}},
    ),
    ("execution", "llm_timeout", 30),
    ("execution", "parallel_test_cases", 3),
    ("execution", "cache_dir", ".cache"),
    ("deployment", "port", 9000),
    ("deployment", "registry", {"url": "ghcr.io", "repository": "me/agent"}),
]

MCP_SERVER = {"name": "fs", "type": "mcp", "description": "Files.", "command": "npx", "args": ["x"]}


def is_config(doc: Doc) -> bool:
    return isinstance(doc, dict) and bool(doc) and set(doc) <= CONFIG_KEYS


def config_graft(doc: Doc, rng: random.Random) -> tuple[Doc, str] | None:
    """Add an entry to a project config's section (or the section itself)."""
    if not is_config(doc):
        return None
    if rng.random() < 0.15:
        servers = doc.setdefault("mcp_servers", [])
        if not isinstance(servers, list):
            return None
        server = copy.deepcopy(MCP_SERVER)
        servers.append(server)
        return doc, f"append to mcp_servers: {show(server)}"
    section, key, value = CONFIG_FRAGMENTS[rng.randrange(len(CONFIG_FRAGMENTS))]
    holder = doc.setdefault(section, {})
    if not isinstance(holder, dict):
        return None
    holder[key] = copy.deepcopy(value)
    return doc, f"set {section}.{key} = {show(value)}"


def config_name(doc: Doc, rng: random.Random) -> tuple[Doc, str] | None:
    """Point an agent's provider or a vectorstore tool's database at a (config) name."""
    if not isinstance(doc, dict) or is_config(doc):
        return None
    names = ["store", "pg", "qd", "chromadb", "missing_store", "", "openai", "azure", "default"]
    choices: list[tuple[str, ...] | tuple[str, int, str]] = []
    tools = doc.get("tools")
    if isinstance(tools, list):
        choices += [
            ("tools", i, "database")
            for i, t in enumerate(tools)
            if isinstance(t, dict) and t.get("type") in ("vectorstore", "hierarchical_document")
        ]
    if isinstance(doc.get("model"), dict):
        choices.append(("model", "provider"))
    path = pick(rng, choices)
    if path is None:
        return None
    value = pick(rng, names)
    get(doc, path[:-1])[path[-1]] = value
    return doc, f"set {show_path(path)} = {show(value)}"


def grader_variant(doc: Doc, rng: random.Random) -> tuple[Doc, str] | None:
    """Misspell a code metric's ``grader`` reference in the ways users do."""
    paths = [p for p, v in walk(doc) if p and p[-1] == "grader" and isinstance(v, str)]
    path = pick(rng, paths)
    if path is None:
        return None
    grader: str = get(doc, path)
    module, _, attr = grader.partition(":")
    value = pick(
        rng,
        [
            f"{module}:missing_fn",
            module,
            f"{module}:",
            f":{attr}",
            f"{module}.{attr}",
            f"{module.replace('.', '/')}.py:{attr}",
            f"{module}:{attr}:extra",
            f" {grader}",
            f"{grader} ",
            f"{module}:__name__",
            f"{module}:__doc__",
            f"{module}.missing:{attr}",
            f"{module}:{attr.upper()}",
            f"{module}::{attr}",
            f"{module}:{attr}()",
            f"{module} : {attr}",
            f"{module}:1{attr}",
        ],
    )
    get(doc, path[:-1])[path[-1]] = value
    return doc, f"set {show_path(path)} = {show(value)}"


def test_cases_file_variant(doc: Doc, rng: random.Random) -> tuple[Doc, str] | None:
    """Point ``test_cases_file`` elsewhere, or add one next to inline ``test_cases``."""
    if not isinstance(doc, dict) or is_config(doc) or not doc:
        return None
    value = pick(
        rng,
        [
            "missing.yaml",
            ".",
            "./",
            "/nonexistent/cases.yaml",
            "config.yaml",
            "agent.yaml",
            "cases.yml",
            "data",
            " ",
            "",
            None,
            ["cases.yaml"],
        ],
    )
    had = "test_cases_file" in doc
    doc["test_cases_file"] = value
    if "test_cases" in doc and rng.random() < 0.3:
        doc["test_cases"] = None
        return doc, f"set test_cases_file = {show(value)}, test_cases = null"
    return doc, f"{'set' if had else 'add'} test_cases_file = {show(value)}"


def share_node(doc: Doc, rng: random.Random) -> tuple[Doc, str] | None:
    """Make two places hold one node, so the dump writes an anchor and an alias."""
    lists = [p for p, v in walk(doc) if isinstance(v, list) and v and isinstance(v[0], dict)]
    path = pick(rng, lists)
    if path is None:
        return None
    items = get(doc, path)
    items.append(items[rng.randrange(len(items))])  # the same object: `*id001`
    return doc, f"append to {show_path(path)} an alias of one of its entries"


def merge_key(doc: Doc, rng: random.Random) -> tuple[Doc, str] | None:
    """Write one list entry as ``<<: *other_entry`` plus a few keys of its own."""
    lists = [
        p
        for p, v in walk(doc)
        if isinstance(v, list) and len(v) >= 1 and all(type(i) is dict for i in v)
    ]
    path = pick(rng, lists)
    if path is None:
        return None
    items = get(doc, path)
    base = items[rng.randrange(len(items))]
    keys = [k for k in base if isinstance(k, str)]
    own = {k: copy.deepcopy(base[k]) for k in keys if rng.random() < 0.3}
    if rng.random() < 0.5 and keys:
        own[rng.choice(keys)] = pick(rng, ["merged", 2, None, True, ""])
    items.append(MergeFrom(base, own))
    return doc, f"append to {show_path(path)}: <<: *entry plus {show(dict(own))}"
