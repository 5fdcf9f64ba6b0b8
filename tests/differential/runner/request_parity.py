"""Request parity: the first model request `holodeck test` sends for a corpus agent, and the
first `run` sends, normalised to one shape and compared.

Each agent of the vendored corpus (`tests/data/corpus/real`) is copied, made to start
offline (the adaptations below, the same for both runners), and run by both against its own
loopback model service; the first request of the agent's model is kept. HoloDeck speaks the
Responses API (openai, azure_openai) or drives the Claude Code CLI of the Claude Agent SDK
(anthropic, ollama); `run` speaks Chat Completions or the Messages API. `normalise` turns
each into {instructions, model, sampling, output limit, reasoning, structured output, tools
(name: description, parameters), tool choice, user message}; every representation-only
difference, and every difference `run` makes on purpose, is named in `NAMED` with its
reason, and applied only where its rule says. Whatever else differs is a failure.

HoloDeck's side is pinned (0.7.1) and deterministic, and takes half an hour over the corpus:
its normalised first request for each agent is recorded under `tests/data/request-parity/
holodeck/` (the agent's corpus path + `.json`), and the tests compare `run`'s live request
with the record. After changing the corpus, an adaptation or HoloDeck's normalisation,
record again (about 35 minutes on 2 cores; AGENT... records only those corpus paths):

    python -m tests.differential.runner.request_parity --regenerate [AGENT...]
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from holodeck_lsp.runner.command import CollectOptions, ReportOptions, RunOptions, run_command
from tests.differential.runner.harness import holodeck_env
from tests.differential.runner.runner_env import ensure_runner_env
from tests.runner.fake_model import FakeModelServer, Reply

CORPUS = Path(__file__).resolve().parents[2] / "data" / "corpus" / "real"
HOLODECK_DEADLINE_S = 300
PROBE = "Hello, which department handles a double charge?"

# What the harness changes in both copies of an agent so that it starts offline.
ADAPTATIONS = {
    "instructions-stand-in": "the corpus holds YAML only: a missing instructions file gets a "
    "one-line stand-in",
    "one-probe-case": "only the first request is compared: the test cases become one "
    "case with the first input (files dropped: the corpus has none of them), and no metric",
    "mcp-left-out": "MCP servers come from npm and the network: MCP tools are left out of "
    "both runs (both send a server's tool listing as it comes; tests/runner/mcp covers it)",
    "stores-in-memory": "vector stores and documents run in memory on a one-paragraph "
    "stand-in source (the search tool's name, description and parameters do not depend on "
    "the store)",
    "function-stub": "the corpus holds no tool code: a function tool's module is a stub "
    "whose function takes `query: str`",
    "no-observability": "`observability:` exports to collectors that are not there; it sends "
    "nothing to the model",
    "oauth-as-api-key": "`run` calls Anthropic with an API key only (docs/runner.md, "
    "`auth_provider`): an agent with `auth_provider: oauth_token` is compared with "
    "`api_key` (the credentials change, not what is asked)",
    "claude-no-sandbox": "HoloDeck's Claude backend needs bubblewrap for its env scrubbing "
    "(not installed here): `claude.disable_subprocess_env_scrub: true` (tool subprocess env "
    "only)",
}

# Differences in the requests that are named, with their reasons.
NAMED = {
    "reasoning-summary": "HoloDeck's Responses request asks `reasoning.summary: auto`; Chat "
    "Completions has no reasoning summaries (they feed only HoloDeck's `thinking` text)",
    "function-strict-false": "the Responses API marks each function tool `strict: false`; "
    "Chat Completions tools are not strict unless marked, as `run` sends them",
    "claude-code-preamble": "Claude Code puts its own lines before the instructions (a "
    "billing header, 'You are a Claude agent, built on Anthropic's Claude Agent SDK.'); "
    "`run` sends the instructions alone",
    "claude-code-builtins": "Claude Code offers its built-in tools (Read, Glob, Grep, "
    "Task..., minus the risky ones HoloDeck disallows) besides the agent's; `run` offers "
    "the agent's tools only",
    "claude-code-mcp-names": "Claude Code names the agent's own tools "
    "`mcp__holodeck_tools__NAME` (they reach it through an in-process MCP server)",
    "claude-code-reminders": "Claude Code adds `<system-reminder>` blocks (skills, date) "
    "before the user's message",
    "claude-code-sampling": "HoloDeck passes no `temperature`, `top_p` or `max_tokens` to "
    "the Claude Agent SDK (claude_backend.py build_options): Claude Code sends its own "
    "(max_tokens 32000, adaptive thinking, `output_config.effort`); `run` sends the agent "
    "file's values",
    "claude-code-output-tool-text": "the StructuredOutput tool's description is Claude "
    "Code's wording; `run` words it itself (same name, same schema, same use)",
    "ollama-protocol": "HoloDeck 0.7.1 drives Ollama through the Claude Agent SDK (Claude "
    "Code against Ollama's Anthropic-compatible API); `run` uses Ollama's OpenAI-compatible "
    "Chat Completions, so the Claude Code differences above apply to Ollama agents as well",
}


# Why an agent is not compared, by a phrase of its runner's error: none of these agents
# starts under one of the runners, whatever the network.
SKIPS = {
    # HoloDeck's Claude backend refuses `acceptAll` without the opt-in (`check`: HL512).
    "holodeck-refuses-accept-all": "permission_mode='acceptAll' disables",
    # An `anthropic` agent's vector store without `embedding_provider`: both runners refuse
    # (`check`: HL512); HoloDeck's refusal comes first.
    "holodeck-refuses-no-embedder": "embedding_provider is required when using vectorstore",
}


@dataclass
class Capture:
    """One runner's first request, and how the runner ended."""

    path: str | None
    body: dict[str, Any] | None
    exit_code: int
    output: str


@dataclass
class Outcome:
    agent: str
    provider: str
    adaptations: set[str] = field(default_factory=set)
    named: set[str] = field(default_factory=set)
    differences: list[str] = field(default_factory=list)
    skipped: str | None = None  # why the agent could not be compared


def _load(text: str | bytes) -> Any:
    return yaml.load(text, Loader=yaml.CSafeLoader)  # libyaml: the corpus is read often


def corpus_agents() -> list[dict[str, Any]]:
    index = json.loads((CORPUS / "index.json").read_text(encoding="utf-8"))
    return [entry for entry in index if entry["kind"] == "agent"]


# ----------------------------------------------------------------------------- preparation


def _first_input(data: dict[str, Any], folder: Path) -> str:
    cases = data.get("test_cases")
    ref = data.get("test_cases_file")
    if cases is None and isinstance(ref, str) and (folder / ref).is_file():
        payload = _load((folder / ref).read_text(encoding="utf-8"))
        cases = payload.get("test_cases") if isinstance(payload, dict) else payload
    for case in cases or []:
        if isinstance(case, dict):
            text = case.get("input") or next(
                (t.get("input") for t in case.get("turns") or [] if isinstance(t, dict)), None
            )
            if isinstance(text, str) and text.strip() and "${" not in text:
                return text
    return PROBE


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


STAND_IN = "# Notes\n\nBilling handles refunds and double charges within four hours.\n"
STORE_KEYS = (
    "database", "source", "id_field", "vector_field", "meta_fields", "record_path",
    "record_prefix", "delimiter", "embedding_model", "embedding_dimensions",
)  # fmt: skip


def _adapt_tools(data: dict[str, Any], folder: Path, used: set[str]) -> None:
    kept: list[dict[str, Any]] = []
    stubs: dict[Path, list[str]] = {}
    for index, tool in enumerate(data.get("tools") or []):
        kind = tool.get("type")
        if kind == "mcp":
            used.add("mcp-left-out")
            continue
        if kind in ("vectorstore", "hierarchical_document"):
            used.add("stores-in-memory")
            tool = {k: v for k, v in tool.items() if k not in STORE_KEYS}
            tool["source"] = f"stand-in/{index}.md"
            _write(folder / tool["source"], STAND_IN)
        elif kind == "function" and isinstance(tool.get("file"), str):
            target = folder / tool["file"]
            if not target.exists():
                used.add("function-stub")
                stubs.setdefault(target, []).append(str(tool.get("function")))
        kept.append(tool)
    for target, names in stubs.items():
        body = "".join(f"def {n}(query: str) -> str:\n    return 'stub'\n\n\n" for n in names)
        _write(target, body)
    if data.get("tools") is not None:
        data["tools"] = kept


def prepare(entry: dict[str, Any], dest: Path, url: str) -> tuple[Path, set[str]]:
    """A copy of the corpus agent in ``dest`` that starts offline against ``url``'s
    service; returns its path and the adaptations used."""
    source = CORPUS / entry["file"]
    folder = source.parent
    dest.mkdir(parents=True, exist_ok=True)
    for companion in entry.get("companions", []):
        if (folder / companion).is_file():
            _write(dest / companion, (folder / companion).read_text(encoding="utf-8"))
    data = _load(source.read_text(encoding="utf-8"))
    used = {"one-probe-case"}
    probe = _first_input(data, folder)
    data.pop("test_cases_file", None)
    data.pop("evaluations", None)
    data["test_cases"] = [{"name": "probe", "input": probe}]
    if data.pop("observability", None) is not None:
        used.add("no-observability")
    instructions = data.get("instructions") or {}
    if isinstance(instructions.get("file"), str) and not (folder / instructions["file"]).is_file():
        used.add("instructions-stand-in")
        _write(dest / instructions["file"], "Answer as the team's guidelines say.\n")
    elif isinstance(instructions.get("file"), str):
        _write(dest / instructions["file"], (folder / instructions["file"]).read_text("utf-8"))
    _adapt_tools(data, dest, used)
    model = data.get("model") or {}
    if model.get("auth_provider") == "oauth_token":
        model["auth_provider"] = "api_key"
        used.add("oauth-as-api-key")
    if model.get("provider") in ("anthropic", "ollama"):
        claude = data.setdefault("claude", {}) or {}
        claude["disable_subprocess_env_scrub"] = True
        data["claude"] = claude
        used.add("claude-no-sandbox")
    if model.get("provider") in ("ollama", "azure_openai") or (
        model.get("provider") == "openai" and model.get("endpoint")
    ):
        root = url.removesuffix("/v1")
        model["endpoint"] = url if model.get("provider") == "openai" else root
    agent = dest / source.name
    agent.write_text(yaml.dump(data, Dumper=yaml.CSafeDumper, sort_keys=False), encoding="utf-8")
    return agent, used


def environment(entry: dict[str, Any], url: str) -> dict[str, str]:
    root = url.removesuffix("/v1")
    env = {
        "OPENAI_BASE_URL": url,
        "OPENAI_API_KEY": "sk-parity",
        "ANTHROPIC_BASE_URL": root,
        "ANTHROPIC_API_KEY": "sk-ant-parity",
        "NO_PROXY": "127.0.0.1,localhost",
        "OLLAMA_HOST": root,
        "CLAUDE_CODE_OAUTH_TOKEN": "sk-ant-oat-parity",  # agents with auth_provider oauth
    }
    for name in entry.get("env_vars", []):
        if name.endswith(("_ENDPOINT", "_URL")):
            env.setdefault(name, root)
        elif name == "AZURE_OPENAI_DEPLOYMENT_NAME":
            env.setdefault(name, "gpt-4o")
        elif name.endswith("SUBSCRIPTION_ID"):
            env.setdefault(name, "00000000-0000-4000-8000-000000000000")  # HoloDeck wants a UUID
        else:
            env.setdefault(name, "parity-placeholder")
    return env


# ----------------------------------------------------------------------------- capture


def _agent_request(
    server: FakeModelServer, holodeck: bool
) -> tuple[str | None, dict[str, Any] | None]:
    """The first request of the agent's model. HoloDeck's agents speak the Responses API
    or, through Claude Code, Messages (its Chat Completions requests are its chunk
    contextualiser's, `context_model`). Claude Code first asks for a session title (no
    tools); its first main-loop request offers its tools."""
    routes = ("/responses", "/messages") if holodeck else ("/chat/completions", "/messages")
    for path, _headers, body in server.requests:
        route = path.split("?")[0]
        if not route.endswith(routes):
            continue  # embeddings, chunk contexts
        if holodeck and route.endswith("/messages") and not body.get("tools"):
            continue
        return route, body
    return None, None


def capture_holodeck(cli: Path, agent: Path, env: dict[str, str]) -> Capture:
    with FakeModelServer(lambda path, body: Reply("ok")) as server:
        home = agent.parent / ".home"
        home.mkdir(exist_ok=True)
        full = holodeck_env(server.url, home)
        full.update({k: v.replace("URL_ROOT", server.root) for k, v in env.items()})
        full["OPENAI_BASE_URL"] = server.url
        full["ANTHROPIC_BASE_URL"] = server.root
        full["TIKTOKEN_CACHE_DIR"] = str(_tiktoken_cache(cli))
        _point(agent, server)
        try:
            done = subprocess.run(
                [str(cli), "test", "run", str(agent), "--output", str(agent.parent / "r.json")],
                cwd=agent.parent,
                env=full,
                capture_output=True,
                text=True,
                timeout=HOLODECK_DEADLINE_S,
            )
            code, output = done.returncode, done.stdout + done.stderr
        except subprocess.TimeoutExpired:
            code, output = -1, "timed out"
        path, body = _agent_request(server, holodeck=True)
        output = output.replace(str(agent.parent), "AGENT_DIR").replace(server.root, "URL_ROOT")
    return Capture(path, body, code, output[-4000:])


def _tiktoken_cache(cli: Path) -> Path:
    """tiktoken's encodings (document chunking needs cl100k_base) come from the network,
    but litellm, in HoloDeck's closure, ships cl100k_base in tiktoken's cache layout."""
    [site] = cli.parent.parent.glob("lib/python*/site-packages")
    return site / "litellm" / "litellm_core_utils" / "tokenizers"


def capture_ours(agent: Path, env: dict[str, str]) -> Capture:
    with FakeModelServer(lambda path, body: Reply("ok")) as server:
        full = {k: v.replace("URL_ROOT", server.root) for k, v in env.items()}
        full.update({"OPENAI_BASE_URL": server.url, "ANTHROPIC_BASE_URL": server.root, "PATH": ""})
        _point(agent, server)
        out, err = io.StringIO(), io.StringIO()
        options = RunOptions(
            agent,
            collect=CollectOptions(user_config=False),
            report=ReportOptions(outputs=[agent.parent / "ours.json"], quiet=True),
        )
        code = run_command(options, out, err, full)
        path, body = _agent_request(server, holodeck=False)
        output = err.getvalue().replace(str(agent.parent), "AGENT_DIR")
    return Capture(path, body, code, output.replace(server.root, "URL_ROOT")[-4000:])


def _point(agent: Path, server: FakeModelServer) -> None:
    """The agent file's own endpoint (Azure, Ollama, a custom OpenAI one) at this server."""
    text = agent.read_text(encoding="utf-8").replace("URL_ROOT/v1", server.url)
    agent.write_text(text.replace("URL_ROOT", server.root), encoding="utf-8")


# ----------------------------------------------------------------------------- normalising


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            str(p.get("text", "")) for p in content if isinstance(p, dict) and "text" in p
        )
    return ""


def _shape(**values: Any) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


def from_responses(body: dict[str, Any], named: set[str]) -> dict[str, Any]:
    reasoning = body.get("reasoning") or {}
    if reasoning.get("summary") is not None:
        named.add("reasoning-summary")
    fmt = (body.get("text") or {}).get("format") or {}
    tools = {}
    for tool in body.get("tools") or []:
        if tool.get("strict") is False:
            named.add("function-strict-false")
        tools[tool["name"]] = {
            "description": tool.get("description") or "",
            "parameters": tool.get("parameters"),
        }
    users = [i for i in body.get("input") or [] if isinstance(i, dict) and i.get("role") == "user"]
    return _shape(
        instructions=body.get("instructions") or "",
        model=body.get("model"),
        temperature=body.get("temperature"),
        top_p=body.get("top_p"),
        max_output_tokens=body.get("max_output_tokens"),
        effort=reasoning.get("effort"),
        structured_output=(
            {"name": fmt.get("name"), "schema": fmt.get("schema"), "strict": fmt.get("strict")}
            if fmt.get("type") == "json_schema"
            else None
        ),
        tools=tools,
        tool_choice=body.get("tool_choice"),
        user=_text(users[0]["content"]) if users else None,
    )


def from_chat(body: dict[str, Any], named: set[str]) -> dict[str, Any]:
    messages = body.get("messages") or []
    system = next((m for m in messages if m.get("role") == "system"), None)
    user = next((m for m in messages if m.get("role") == "user"), None)
    fmt = (body.get("response_format") or {}).get("json_schema") or {}
    tools = {
        t["function"]["name"]: {
            "description": t["function"].get("description") or "",
            "parameters": t["function"].get("parameters"),
        }
        for t in body.get("tools") or []
    }
    return _shape(
        instructions=_text(system["content"]) if system else "",
        model=body.get("model"),
        temperature=body.get("temperature"),
        top_p=body.get("top_p"),
        max_output_tokens=body.get("max_completion_tokens") or body.get("max_tokens"),
        effort=body.get("reasoning_effort"),
        structured_output=(
            {"name": fmt.get("name"), "schema": fmt.get("schema"), "strict": fmt.get("strict")}
            if fmt
            else None
        ),
        tools=tools,
        tool_choice=body.get("tool_choice"),
        user=_text(user["content"]) if user else None,
    )


OUTPUT_TOOL = "StructuredOutput"
MCP_PREFIX = "mcp__holodeck_tools__"


def from_messages(body: dict[str, Any], named: set[str], claude_code: bool) -> dict[str, Any]:
    """The Messages API: ours, or Claude Code's (whose extras are named and set aside)."""
    system = body.get("system")
    blocks = system if isinstance(system, list) else [{"text": system or ""}]
    texts = [str(b.get("text", "")) for b in blocks]
    if claude_code:
        named.add("claude-code-preamble")
        texts = [
            t for t in texts
            if not t.startswith("x-anthropic-billing-header")
            and not t.startswith("You are a Claude agent, built on Anthropic's Claude Agent SDK")
        ]  # fmt: skip
    tools: dict[str, Any] = {}
    structured = None
    for tool in body.get("tools") or []:
        name = str(tool.get("name"))
        if name == OUTPUT_TOOL:
            structured = {"name": name, "schema": tool.get("input_schema")}
            continue
        if claude_code and not name.startswith("mcp__"):
            named.add("claude-code-builtins")
            continue
        if name.startswith(MCP_PREFIX):
            named.add("claude-code-mcp-names")
            name = name.removeprefix(MCP_PREFIX)
        tools[name] = {"description": tool.get("description") or "",
                       "parameters": tool.get("input_schema")}  # fmt: skip
    if claude_code and structured is not None:
        named.add("claude-code-output-tool-text")
    messages = body.get("messages") or []
    content = messages[0].get("content") if messages else None
    if claude_code and isinstance(content, list):
        plain = [b for b in content if isinstance(b, dict) and b.get("type") == "text"]
        if any(str(b.get("text", "")).startswith("<system-reminder>") for b in plain):
            named.add("claude-code-reminders")
        plain = [b for b in plain if not str(b.get("text", "")).startswith("<system-reminder>")]
        content = plain
    shape = _shape(
        instructions="\n\n".join(t for t in texts if t),
        model=body.get("model"),
        structured_output=structured,
        tools=tools,
        tool_choice=body.get("tool_choice"),
        user=_text(content),
    )
    if not claude_code:
        shape.update(
            _shape(
                temperature=body.get("temperature"),
                top_p=body.get("top_p"),
                max_output_tokens=body.get("max_tokens"),
            )
        )
    return shape


def normalise(capture: Capture, named: set[str], holodeck: bool) -> dict[str, Any]:
    body = capture.body or {}
    if capture.path is None:
        return {}
    if capture.path.endswith("/responses"):
        return from_responses(body, named)
    if capture.path.endswith("/chat/completions"):
        return from_chat(body, named)
    return from_messages(body, named, claude_code=holodeck)


def reconcile(
    provider: str, theirs: dict[str, Any], ours: dict[str, Any], named: set[str]
) -> list[str]:
    """The differences left once the named ones are set aside."""
    if provider in ("anthropic", "ollama"):
        # Claude Code sends no agent sampling values; ours are the agent file's.
        if any(k in ours for k in ("temperature", "top_p", "max_output_tokens")):
            named.add("claude-code-sampling")
        for key in ("temperature", "top_p", "max_output_tokens"):
            ours.pop(key, None)
        if provider == "ollama":
            named.add("ollama-protocol")
        output = theirs.get("structured_output")
        if output is not None and ours.get("structured_output") is not None:
            # Ours went as the same tool over Messages, or as response_format to Ollama.
            ours["structured_output"] = {"name": output["name"],
                                         "schema": ours["structured_output"]["schema"]}  # fmt: skip
    left = []
    for key in sorted(set(theirs) | set(ours)):
        if theirs.get(key) != ours.get(key):
            left.append(
                f"{key}: holodeck test {json.dumps(theirs.get(key))[:400]} "
                f"!= run {json.dumps(ours.get(key))[:400]}"
            )
    return left


def _outcome(entry: dict[str, Any]) -> Outcome:
    data = _load((CORPUS / entry["file"]).read_text(encoding="utf-8"))
    return Outcome(entry["file"], str((data.get("model") or {}).get("provider")))


def judge(outcome: Outcome, record: dict[str, Any], ours: Capture) -> Outcome:
    """``run``'s live request against HoloDeck's recorded one."""
    if record.get("skipped") is not None:
        outcome.skipped = str(record["skipped"])
        return outcome
    if ours.body is None:
        tail = ours.output.strip().splitlines()
        outcome.skipped = "run sent no model request: " + " | ".join(tail[-2:])
        return outcome
    outcome.named.update(record["named"])
    our_shape = normalise(ours, outcome.named, holodeck=False)
    theirs = json.loads(json.dumps(record["request"]))  # reconcile may edit either side
    outcome.differences = reconcile(outcome.provider, theirs, our_shape, outcome.named)
    return outcome


def _fingerprint(folder: Path) -> str:
    """The prepared copy's whole content: two corpus agents that differ only in what the
    adaptations removed (a template rendered for several vector stores) send the same."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        text = path.read_bytes()
        if path.suffix in (".yaml", ".yml"):
            data = _load(text)
            if isinstance(data, dict):
                for key in ("name", "description", "author"):
                    data.pop(key, None)  # they go to no request
            text = json.dumps(data, sort_keys=True).encode()
        digest.update(str(path.relative_to(folder)).encode() + b"\0" + text + b"\0")
    return digest.hexdigest()


def _prepare_all(
    entries: list[dict[str, Any]], workdir: Path, side: str
) -> tuple[dict[str, tuple[dict[str, Any], Path]], list[tuple[Outcome, str]]]:
    """Each entry's prepared copy under ``workdir``, one per distinct content (its
    fingerprint), and each entry's outcome with the fingerprint it shares."""
    prepared: dict[str, tuple[dict[str, Any], Path]] = {}
    keys: list[tuple[Outcome, str]] = []
    for n, entry in enumerate(entries):
        outcome = _outcome(entry)
        agent, outcome.adaptations = prepare(entry, workdir / f"{n}" / side, "URL_ROOT/v1")
        key = _fingerprint(agent.parent)
        prepared.setdefault(key, (entry, agent))
        keys.append((outcome, key))
    return prepared, keys


# ----------------------------------------------------------------------------- records

DATA = Path(__file__).resolve().parents[2] / "data" / "request-parity" / "holodeck"


def record_path(entry: dict[str, Any]) -> Path:
    return DATA / f"{entry['file']}.json"


def holodeck_record(outcome: Outcome, capture: Capture) -> dict[str, Any]:
    """What is kept of HoloDeck's first request: its normalised shape and the differences
    named while normalising it, or why it sent none."""
    record: dict[str, Any] = {"agent": outcome.agent, "provider": outcome.provider}
    if capture.body is None:
        tail = capture.output.strip().splitlines()
        record["skipped"] = "holodeck test sent no model request: " + " | ".join(tail[-2:])
        return record
    named: set[str] = set()
    record["route"] = capture.path
    record["request"] = normalise(capture, named, holodeck=True)
    record["named"] = sorted(named)
    return record


def record_holodeck(
    cli: Path, entries: list[dict[str, Any]], workdir: Path
) -> list[dict[str, Any]]:
    """HoloDeck's record of each entry, live: two `holodeck test` runs at a time; entries
    whose prepared copies are the same share one run."""
    prepared, keys = _prepare_all(entries, workdir, "holodeck")
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {
            key: pool.submit(capture_holodeck, cli, agent, environment(entry, "URL_ROOT/v1"))
            for key, (entry, agent) in prepared.items()
        }
        captures = {key: future.result() for key, future in futures.items()}
    return [holodeck_record(outcome, captures[key]) for outcome, key in keys]


def read_record(entry: dict[str, Any]) -> dict[str, Any]:
    return dict(json.loads(record_path(entry).read_text(encoding="utf-8")))


def write_record(record: dict[str, Any]) -> None:
    path = DATA / f"{record['agent']}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def compare_corpus(entries: list[dict[str, Any]], workdir: Path) -> list[Outcome]:
    """Every entry's live `run` request against HoloDeck's recorded one; entries whose
    prepared copies are the same share one run."""
    prepared, keys = _prepare_all(entries, workdir, "ours")
    captures = {key: capture_ours(agent, environment(entry, "URL_ROOT/v1"))
                for key, (entry, agent) in prepared.items()}  # fmt: skip
    return [judge(outcome, read_record(entry), captures[key])
            for (outcome, key), entry in zip(keys, entries, strict=True)]  # fmt: skip


def compare_agent(entry: dict[str, Any]) -> Outcome:
    with tempfile.TemporaryDirectory(prefix="parity-") as tmp:
        [outcome] = compare_corpus([entry], Path(tmp))
    return outcome


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--regenerate", action="store_true", required=True,
                        help="record HoloDeck's first requests (builds its venv if needed)")
    parser.add_argument("agents", nargs="*", help="corpus paths (default: every agent)")
    args = parser.parse_args(argv)
    entries = [e for e in corpus_agents() if not args.agents or e["file"] in args.agents]
    if args.agents and len(entries) != len(args.agents):
        parser.error(f"not corpus agents: {set(args.agents) - {e['file'] for e in entries}}")
    cli = ensure_runner_env()
    with tempfile.TemporaryDirectory(prefix="parity-record-") as tmp:
        records = record_holodeck(cli, entries, Path(tmp))
    for record in records:
        write_record(record)
        print(record["agent"], "skipped" if "skipped" in record else record["route"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
