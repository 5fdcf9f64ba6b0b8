"""Structural mutations of a parsed YAML file: what users get wrong, one change at a time.

Each mutation takes the document and a random generator, changes the document in place (or
returns a new root) and says what it did, or returns None when it does not apply.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable
from typing import Any

from tests.differential.mutation_tree import (
    Doc,
    Plain,
    YPath,
    get,
    key_at,
    pick,
    put,
    replace_key,
    show,
    show_path,
    walk,
)
from tests.differential.reference_mutations import (
    config_graft,
    config_name,
    grader_variant,
    merge_key,
    share_node,
    test_cases_file_variant,
)
from tests.differential.schema_mutations import schema_edge

ODD_VALUES: list[Any] = [
    0,
    1,
    -1,
    2.5,
    True,
    False,
    None,
    Plain("yes"),
    Plain("no"),
    Plain("on"),
    Plain("off"),
    Plain("Yes"),
    Plain("NO"),
    Plain("~"),
    Plain("1e3"),
    Plain("0x1F"),
    Plain("0o17"),
    Plain("017"),
    Plain("1_000"),
    Plain("12:30"),
    Plain(".inf"),
    Plain("-.inf"),
    Plain(".nan"),
    Plain("2024-01-01"),
    [],
    ["a", "b"],
    [1, 2],
    [{"x": 1}],
    {},
    {"a": 1},
    {"name": "x"},
    "",
    " ",
    "   \t ",
    "\n",
    "\u200b",
    "\u00a0",
    "\ufeff",
    "42",
    "3.5",
    "-1",
    "0",
    "true",
    "null",
    "y",
    "t",
    "1",
    "off",
    "1.0",
    " 5 ",
    "+3",
    "1e3",
    "5_000",
    "None",
    "yes",
    "${HOLODECK_VALUE}",
    "${API_KEY}",
    "${TIMEOUT}",
    "prefix-${HOST}-suffix",
    "x" * 5000,
    "a\x00b",
    "../" * 40 + "etc/passwd",
    "a.b:c",
    "not a url",
    "http://",
    "https://example.com/v1",
    "/absolute/path.md",
    "../outside.md",
]

NUMBERS: list[Any] = [
    -1,
    0,
    -0.5,
    0.0,
    0.5,
    1,
    1.0,
    1.5,
    2,
    99,
    100,
    101,
    128_000,
    1_000_001,
    10**12,
    2**63,
    1e308,
    -(10**9),
    True,
    Plain(".inf"),
    Plain(".nan"),
    "5",
    "1.0",
    "1e3",
    " 7 ",
    "+3",
    "0x10",
    1e-9,
    -0.0,
    "0.5",
]

KNOWN_WORDS = [
    "openai",
    "azure_openai",
    "anthropic",
    "ollama",
    "google",
    "function",
    "mcp",
    "vectorstore",
    "hierarchical_document",
    "prompt",
    "plugin",
    "standard",
    "geval",
    "rag",
    "code",
    "faithfulness",
    "answer_relevancy",
    "groundedness",
    "bleu",
    "rouge",
    "meteor",
    "equality",
    "numeric",
    "image",
    "pdf",
    "text",
    "csv",
    "stdio",
    "sse",
    "http",
    "websocket",
    "chromadb",
    "in-memory",
    "postgres",
    "qdrant",
    "pinecone",
    "azure",
    "aws",
    "gcp",
    "docker",
    "info",
    "debug",
    "auto",
    "none",
    "bypassPermissions",
    "acceptEdits",
    "default",
    "plan",
    "high",
    "low",
    "medium",
]


def typo(word: str, rng: random.Random) -> str:
    """A plausible misspelling (or miscasing) of ``word``; never ``word`` itself."""
    for _ in range(10):
        kind = rng.randrange(8)
        i = rng.randrange(max(1, len(word)))
        if kind == 0 and len(word) > 1:
            out = word[:i] + word[i + 1 :]
        elif kind == 1 and len(word) > 1:
            j = min(i, len(word) - 2)
            out = word[:j] + word[j + 1] + word[j] + word[j + 2 :]
        elif kind == 2:
            out = word[:i] + word[i] + word[i:]
        elif kind == 3:
            out = word.upper() if rng.random() < 0.5 else word.capitalize()
        elif kind == 4:
            out = word.replace("_", "-") if "_" in word else word.replace("-", "_")
        elif kind == 5:
            out = word + "s"
        elif kind == 6:
            out = word + " "
        else:
            out = rng.choice(["_", ""]).join(re.split(r"[_-]", word)) + rng.choice(["", "_"])
        if out != word:
            return out
    return word + "x"


# Small pieces HoloDeck accepts in the named places, grafted in so that mutations also reach
# shapes the seeds lack (matchers, counts, files, every metric kind, every tool kind).
TURN_FRAGMENTS: list[tuple[str, Any]] = [
    ("expected_tools", ["search", {"name": "search", "count": 2}]),
    (
        "expected_tools",
        [{"name": "lookup", "args": {"row": {"fuzzy": "Cash"}, "year": {"regex": r"^20\d\d$"}}}],
    ),
    ("expected_tools", [{"name": "calc", "args": {"a": 1.5, "b": "x", "c": None, "d": [1]}}]),
    ("files", [{"path": "data/report.pdf", "type": "pdf", "pages": [1, 2]}]),
    ("files", [{"url": "https://example.com/a.png", "type": "image", "description": "chart"}]),
    ("files", [{"path": "sheet.xlsx", "type": "excel", "sheet": "S1", "range": "A1:B4"}]),
    ("retrieval_context", ["The sky is blue.", "Water is wet."]),
    ("ground_truth", "Forty two"),
    ("turn_config", {"program": "add(1, 2)", "nested": {"k": [1, 2]}}),
    ("evaluations", [{"metric": "equality", "case_insensitive": True}]),
    ("evaluations", [{"type": "code", "grader": "graders.checks:cash_change"}]),
    ("evaluations", [{"type": "standard", "metric": "numeric", "absolute_tolerance": 0.1}]),
    ("evaluations", [{"type": "rag", "metric_type": "faithfulness", "threshold": 0.7}]),
    (
        "evaluations",
        [{"type": "geval", "name": "Tone", "criteria": "Polite.", "threshold": 0.5}],
    ),
]

CASE_FRAGMENTS: list[tuple[str, Any]] = [
    *TURN_FRAGMENTS,
    ("turns", [{"input": "first"}, {"input": "second", "ground_truth": "two"}]),
    ("name", "a named case"),
    ("input", "What is the answer?"),
]

METRIC_FRAGMENTS: list[Any] = [
    {"type": "standard", "metric": "bleu", "threshold": 0.4},
    {"type": "standard", "metric": "rouge", "threshold": 0.4, "enabled": True},
    {"type": "standard", "metric": "equality", "strip_whitespace": True},
    {"type": "standard", "metric": "numeric", "relative_tolerance": 0.01, "accept_percent": True},
    {"type": "standard", "metric": "groundedness", "threshold": 0.8, "fail_on_error": False},
    {"type": "standard", "metric": "equality", "response_path": "result.items[0].score"},
    {"type": "geval", "name": "Helpful", "criteria": "Helpful.", "evaluation_steps": ["Read"]},
    {"type": "rag", "metric_type": "contextual_recall", "threshold": 0.6, "include_reason": True},
    {"type": "code", "grader": "graders.checks:cash_change", "threshold": 0.5},
]

TOOL_FRAGMENTS: list[Any] = [
    {"name": "calc", "type": "function", "description": "Math.", "file": "t.py", "function": "f"},
    {
        "name": "docs",
        "type": "vectorstore",
        "description": "Search docs.",
        "source": "data/docs",
        "top_k": 5,
    },
    {"name": "fs", "type": "mcp", "description": "Files.", "command": "npx", "args": ["-y", "x"]},
    {
        "name": "remote",
        "type": "mcp",
        "description": "Remote.",
        "transport": "sse",
        "url": "https://example.com/sse",
    },
    {
        "name": "summarize",
        "type": "prompt",
        "description": "Summarize.",
        "template": "Summarize {{text}}",
        "parameters": {"text": {"type": "string"}},
    },
]

TOP_FRAGMENTS: list[tuple[str, Any]] = [
    ("execution", {"parallel_test_cases": 2, "llm_timeout": 30, "cache_enabled": True}),
    ("execution", {"file_timeout": 10, "download_timeout": 10, "verbose": False}),
    ("description", "An agent."),
    ("author", "someone"),
    ("observability", {"enabled": True, "service_name": "svc"}),
    ("evaluations", {"metrics": [{"type": "standard", "metric": "bleu"}]}),
    ("test_cases_file", "cases.yaml"),
    ("test_cases", [{"input": "hello"}]),
]


Mutation = Callable[[Doc, random.Random], tuple[Doc, str] | None]


def _mappings(doc: Doc) -> list[YPath]:
    return [p for p, v in walk(doc) if isinstance(v, dict)]


def _leaves(doc: Doc) -> list[YPath]:
    return [p for p, v in walk(doc) if p and not isinstance(v, dict | list)]


def _test_cases(doc: Doc) -> list[YPath]:
    """Paths of test-case mappings (in an agent, a ``test_cases:`` mapping or a bare list)."""
    if isinstance(doc, list):
        return [(i,) for i, v in enumerate(doc) if isinstance(v, dict)]
    found: list[YPath] = []
    if isinstance(doc, dict) and isinstance(doc.get("test_cases"), list):
        found = [("test_cases", i) for i, v in enumerate(doc["test_cases"]) if isinstance(v, dict)]
    return found


def _turns(doc: Doc) -> list[YPath]:
    found: list[YPath] = []
    for case in _test_cases(doc):
        turns = get(doc, case).get("turns")
        if isinstance(turns, list):
            found += [(*case, "turns", i) for i, t in enumerate(turns) if isinstance(t, dict)]
    return found


def _where_key(doc: Doc, key: str) -> list[YPath]:
    return [p for p, _ in walk(doc) if p and p[-1] == key]


def drop_key(doc: Doc, rng: random.Random) -> tuple[Doc, str] | None:
    path = pick(rng, [p for p in _mappings(doc) if get(doc, p)])
    if path is None:
        return None
    key = pick(rng, list(get(doc, path)))
    del get(doc, path)[key]
    return doc, f"drop key {show_path((*path, key))}"


def rename_key(doc: Doc, rng: random.Random) -> tuple[Doc, str] | None:
    path = pick(rng, [p for p in _mappings(doc) if get(doc, p)])
    if path is None:
        return None
    mapping = get(doc, path)
    key = pick(rng, [k for k in mapping if isinstance(k, str)])
    if key is None:
        return None
    new = typo(key, rng)
    if new in mapping:
        return None
    replace_key(mapping, key, new)
    return doc, f"rename key {show_path((*path, key))} -> {new!r}"


def add_unknown_key(doc: Doc, rng: random.Random) -> tuple[Doc, str] | None:
    path = pick(rng, _mappings(doc))
    if path is None:
        return None
    mapping = get(doc, path)
    siblings = [k for k in mapping if isinstance(k, str)]
    candidates: list[Any] = ["extra", "enabled", "timeout", "notes", "type", "name", "id"]
    candidates += [1, True, None, 2.5]  # keys YAML reads as other types than text
    if siblings:
        candidates.append(typo(pick(rng, siblings), rng))
    key = pick(rng, [k for k in candidates if k not in mapping])
    if key is None:
        return None
    value = pick(rng, ["x", 1, True, None, ["a"], {"k": "v"}])
    mapping[key] = value
    return doc, f"add key {show_path((*path, key))} = {show(value)}"


def replace_value(doc: Doc, rng: random.Random) -> tuple[Doc, str] | None:
    path = pick(rng, [p for p, _ in walk(doc) if p])
    if path is None:
        return None
    value = copy.deepcopy(pick(rng, ODD_VALUES))
    put(doc, path, value)
    return doc, f"set {show_path(path)} = {show(value)}"


def odd_number(doc: Doc, rng: random.Random) -> tuple[Doc, str] | None:
    numeric = [
        p for p, v in walk(doc) if p and isinstance(v, int | float) and not isinstance(v, bool)
    ]
    known = ["temperature", "max_tokens", "top_p", "threshold", "top_k", "count", "pages"]
    numeric += [p for k in known for p in _where_key(doc, k)]
    path = pick(rng, numeric)
    if path is None:
        return None
    value = pick(rng, NUMBERS)
    put(doc, path, value)
    return doc, f"set {show_path(path)} = {show(value)}"


def enum_typo(doc: Doc, rng: random.Random) -> tuple[Doc, str] | None:
    words = [
        p
        for p, v in walk(doc)
        if p and isinstance(v, str) and re.fullmatch(r"[A-Za-z][\w.-]{0,30}", v)
    ]
    path = pick(rng, words)
    if path is None:
        return None
    old = get(doc, path)
    new = typo(old, rng) if rng.random() < 0.7 else pick(rng, KNOWN_WORDS)
    put(doc, path, new)
    return doc, f"set {show_path(path)} = {show(new)} (was {show(old)})"


def empty_container(doc: Doc, rng: random.Random) -> tuple[Doc, str] | None:
    path = pick(rng, [p for p, v in walk(doc) if p and isinstance(v, list | dict) and v])
    if path is None:
        return None
    empty: list[Any] | dict[str, Any] = [] if isinstance(get(doc, path), list) else {}
    put(doc, path, empty)
    return doc, f"set {show_path(path)} = {show(empty)}"


def turns_conflict(doc: Doc, rng: random.Random) -> tuple[Doc, str] | None:
    cases = _test_cases(doc)
    path = pick(rng, cases)
    if path is None:
        return None
    case = get(doc, path)
    turns = case.get("turns")
    if isinstance(turns, list) and turns and isinstance(turns[0], dict):
        key = pick(rng, ["input", "ground_truth", "expected_tools", "files", "retrieval_context"])
        value = turns[0].get(key, dict(TURN_FRAGMENTS).get(key, "moved"))
        case[key] = copy.deepcopy(value)
        return doc, f"copy turns[0].{key} up to {show_path(path)}.{key}"
    if "input" in case:
        turn = {"input": case["input"]}
        if rng.random() < 0.5:
            del case["input"]
            case["turns"] = [turn]
            return doc, f"move {show_path(path)}.input into a turn"
        case["turns"] = [turn]
        return doc, f"add turns next to {show_path(path)}.input"
    return None


def graft_fragment(doc: Doc, rng: random.Random) -> tuple[Doc, str] | None:
    if not isinstance(doc, dict | list):
        return None
    places: list[tuple[YPath, list[tuple[str, Any]]]] = []
    places += [(p, TURN_FRAGMENTS) for p in _turns(doc)]
    places += [(p, CASE_FRAGMENTS) for p in _test_cases(doc)]
    if isinstance(doc, dict):
        places.append(((), TOP_FRAGMENTS))
        for p in _where_key(doc, "metrics"):
            if isinstance(get(doc, p), list):
                places.append((p, [("+", m) for m in METRIC_FRAGMENTS]))
        if isinstance(doc.get("tools"), list):
            places.append((("tools",), [("+", t) for t in TOOL_FRAGMENTS]))
        elif "tools" not in doc:
            places.append(((), [("tools", [t]) for t in TOOL_FRAGMENTS]))
    if not places:
        return None
    path, fragments = places[rng.randrange(len(places))]
    key, value = fragments[rng.randrange(len(fragments))]
    target = get(doc, path)
    if key == "+":
        target.append(copy.deepcopy(value))
        return doc, f"append to {show_path(path)}: {show(value)}"
    target[key] = copy.deepcopy(value)
    return doc, f"graft {show_path((*path, key))} = {show(value)}"


def matcher(doc: Doc, rng: random.Random) -> tuple[Doc, str] | None:
    """Give an expected tool an ``args`` value that is a matcher, valid or not."""
    turns = _turns(doc) + _test_cases(doc)
    path = pick(rng, turns)
    if path is None:
        return None
    holder = get(doc, path)
    tools = holder.get("expected_tools")
    if not isinstance(tools, list) or not tools:
        tools = holder["expected_tools"] = [{"name": "search"}]
    index = rng.randrange(len(tools))
    entry = tools[index]
    if not isinstance(entry, dict):
        entry = tools[index] = {"name": str(entry)}
    args = entry.get("args")
    if not isinstance(args, dict):
        args = entry["args"] = {}
    arg = pick(rng, [*args, "query", "a.b", "items[0]", "", "q r", "1", "x-y"])
    value = copy.deepcopy(
        pick(
            rng,
            [
                {"fuzzy": "cash"},
                {"regex": "^a+$"},
                {"fuzzy": "a", "regex": "b"},
                {"regex": "x", "extra": 1},
                {"fuzzy": "x", "case": True},
                {"fuzzy": 5},
                {"regex": 5},
                {"regex": None},
                {"regex": ["a"]},
                {"fuzzy": ""},
                {"regex": ""},
                {"regex": "(unclosed"},
                {"regex": "[a-"},
                {"regex": "*start"},
                {"regex": "a{2,1}"},
                {"regex": r"\p{L}"},
                {"regex": "(?P<n>a)(?P<n>b)"},
                {"regex": "a)"},
                {"Regex": "a"},
                {"exact": "a"},
                {},
                {"nested": {"fuzzy": "a"}},
                [{"fuzzy": "a"}],
                "plain value",
                42,
                None,
            ],
        )
    )
    args[arg] = value
    return doc, f"set {show_path((*path, 'expected_tools', index, 'args', arg))} = {show(value)}"


def count_variant(doc: Doc, rng: random.Random) -> tuple[Doc, str] | None:
    path = pick(rng, _turns(doc) + _test_cases(doc))
    if path is None:
        return None
    holder = get(doc, path)
    tools = holder.get("expected_tools")
    if not isinstance(tools, list) or not tools:
        tools = holder["expected_tools"] = ["search"]
    index = rng.randrange(len(tools))
    entry = tools[index]
    if not isinstance(entry, dict):
        entry = tools[index] = {"name": str(entry)}
    value = pick(rng, [0, -1, 1, 3, 1.0, 2.5, True, False, "2", Plain("yes"), None, [1], 10**6])
    entry["count"] = value
    return doc, f"set {show_path((*path, 'expected_tools', index, 'count'))} = {show(value)}"


def expected_tool_shape(doc: Doc, rng: random.Random) -> tuple[Doc, str] | None:
    path = pick(rng, _turns(doc) + _test_cases(doc))
    if path is None:
        return None
    value = copy.deepcopy(
        pick(
            rng,
            [
                {},
                {"name": ""},
                {"name": "  "},
                {"name": None},
                {"name": 5},
                {"count": 2},
                {"name": "x", "args": "a"},
                {"name": "x", "args": ["a"]},
                {"name": "x", "args": None},
                {"name": "x", "args": {}},
                {"name": "x", "extra": 1},
                5,
                None,
                ["x"],
                "",
                "  ",
                True,
            ],
        )
    )
    get(doc, path).setdefault("expected_tools", [])
    tools = get(doc, path)["expected_tools"]
    if not isinstance(tools, list):
        return None
    tools.append(value)
    return doc, f"append to {show_path((*path, 'expected_tools'))}: {show(value)}"


def metric_without_type(doc: Doc, rng: random.Random) -> tuple[Doc, str] | None:
    metrics = [
        p
        for p, v in walk(doc)
        if len(p) >= 2
        and isinstance(p[-1], int)
        and p[-2] in ("metrics", "evaluations")
        and isinstance(v, dict)
    ]
    path = pick(rng, metrics)
    if path is not None and "type" in get(doc, path):
        del get(doc, path)["type"]
        return doc, f"drop key {show_path((*path, 'type'))}"
    holders = _turns(doc) + _test_cases(doc)
    where = pick(rng, holders)
    entry = copy.deepcopy(pick(rng, METRIC_FRAGMENTS))
    entry.pop("type")
    if where is None or rng.random() < 0.3:
        if not isinstance(doc, dict):
            return None
        evals = doc.setdefault("evaluations", {"metrics": []})
        if not isinstance(evals, dict) or not isinstance(evals.get("metrics"), list):
            return None
        evals["metrics"].append(entry)
        return doc, f"append to evaluations.metrics (no type): {show(entry)}"
    holder = get(doc, where)
    evals = holder.setdefault("evaluations", [])
    if not isinstance(evals, list):
        return None
    evals.append(entry)
    return doc, f"append to {show_path((*where, 'evaluations'))} (no type): {show(entry)}"


def tool_damage(doc: Doc, rng: random.Random) -> tuple[Doc, str] | None:
    if not isinstance(doc, dict) or not isinstance(doc.get("tools"), list) or not doc["tools"]:
        return None
    tools = doc["tools"]
    index = rng.randrange(len(tools))
    tool = tools[index]
    kind = rng.randrange(4)
    if kind == 0 and isinstance(tool, dict) and "type" in tool:
        del tool["type"]
        return doc, f"drop key tools[{index}].type"
    if kind == 1:
        tools.append(copy.deepcopy(tool))
        return doc, f"duplicate tools[{index}] (same name)"
    if kind == 2 and isinstance(tool, dict):
        clone = copy.deepcopy(tool)
        if isinstance(clone.get("name"), str):
            clone["name"] = clone["name"].upper() if rng.random() < 0.5 else clone["name"] + " "
        tools.append(clone)
        return doc, f"duplicate tools[{index}] with name {show(clone.get('name'))}"
    if isinstance(tool, dict):
        name = pick(rng, ["", " ", "has space", "a" * 70, "dash-name", "1starts", "dot.name"])
        tool["name"] = name
        return doc, f"set tools[{index}].name = {show(name)}"
    return None


def over_long(doc: Doc, rng: random.Random) -> tuple[Doc, str] | None:
    choices: list[tuple[YPath, int]] = []
    if isinstance(doc, dict):
        if isinstance(doc.get("tools"), list) and doc["tools"]:
            choices.append((("tools",), rng.choice([50, 51])))
        if isinstance(doc.get("test_cases"), list) and doc["test_cases"]:
            choices.append((("test_cases",), rng.choice([1000, 1001])))
    elif isinstance(doc, list) and doc:
        choices.append(((), rng.choice([1000, 1001])))
    for holder in _turns(doc) + _test_cases(doc):
        choices.append(((*holder, "files"), rng.choice([10, 11])))
    if not choices:
        return None
    path, size = choices[rng.randrange(len(choices))]
    items = get(doc, path) if path[-1:] != ("files",) else get(doc, path[:-1]).get("files")
    if not isinstance(items, list) or not items:
        items = [{"path": f"f{i}.txt", "type": "text"} for i in range(1)]
    grown = []
    for i in range(size):
        item = copy.deepcopy(items[i % len(items)])
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            item["name"] = f"{item['name']}_{i}"
        grown.append(item)
    put(doc, path, grown)
    return doc, f"grow {show_path(path)} to {size} entries"


def env_reference(doc: Doc, rng: random.Random) -> tuple[Doc, str] | None:
    path = pick(rng, _leaves(doc))
    if path is None:
        return None
    name = re.sub(r"\W", "_", str(key_at(path) or "value")).upper()
    value = pick(rng, [f"${{{name}}}", f"${{{name}}}/x", "${UNSET_THING}"])
    put(doc, path, value)
    return doc, f"set {show_path(path)} = {show(value)}"


STRUCTURAL: list[tuple[str, Mutation, int]] = [
    ("drop-key", drop_key, 10),
    ("rename-key", rename_key, 10),
    ("unknown-key", add_unknown_key, 8),
    ("odd-value", replace_value, 16),
    ("odd-number", odd_number, 8),
    ("enum-typo", enum_typo, 8),
    ("empty-container", empty_container, 5),
    ("turns-conflict", turns_conflict, 4),
    ("graft", graft_fragment, 10),
    ("matcher", matcher, 5),
    ("count", count_variant, 3),
    ("expected-tool", expected_tool_shape, 3),
    ("metric-no-type", metric_without_type, 4),
    ("tool", tool_damage, 5),
    ("over-long", over_long, 1),
    ("env-ref", env_reference, 2),
    ("schema-edge", schema_edge, 30),
    ("config-graft", config_graft, 20),
    ("config-name", config_name, 3),
    ("grader", grader_variant, 6),
    ("test-cases-file", test_cases_file_variant, 2),
    ("alias", share_node, 2),
    ("merge-key", merge_key, 3),
]
