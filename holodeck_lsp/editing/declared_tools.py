"""The tools an expected tool can name, and the arguments each takes, for completion.

From the agent file: its `tools:` (function, vector store, hierarchical document and prompt
tools are called by their own names); a function's arguments are its `parameters:` when
written, else its function's, read from `file` with `ast` (never imported); a search tool
takes `query`. An MCP server's tools are known only once it has answered: the calls a
recording of the suite or the editor's last run of it saw, with the arguments they
carried. Plain data in and out: the caller reads the files (bounded, never on the event
loop) and hands the reader in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from holodeck_lsp.graders.signatures import function_signature
from holodeck_lsp.nesting import MAX_FILE_DEPTH, loads
from holodeck_lsp.validation.yaml.loader import load_yaml

SEARCH_ARGUMENTS = ("query",)  # what a vector store or document tool is called with
_SEARCH_KINDS = ("vectorstore", "hierarchical_document")
_NAMED_KINDS = ("function", "prompt", *_SEARCH_KINDS)


@dataclass(frozen=True)
class ToolChoice:
    """A name calls can carry, the arguments known for it, and where both come from."""

    name: str
    arguments: tuple[str, ...]
    origin: str  # `function lookup in tools.py`, `seen in replay.jsonl`


Call = tuple[str, Iterable[str]]  # a tool call seen: its name and its argument names


def tools_section(text: str) -> list[Any]:
    """The agent's `tools:` list, its lines parsed alone: the rest of the document may be
    half-typed while the user completes a test case."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if line.startswith("tools:")), None)
    if start is None:
        return []
    end = start + 1
    while end < len(lines) and (not lines[end][:1].strip() or lines[end][:1] in ("-", "#")):
        end += 1
    data = load_yaml("\n".join(lines[start:end])).data
    tools = data.get("tools") if isinstance(data, dict) else None
    return tools if isinstance(tools, list) else []


def declared_tools(
    text: str, folder: Path, read: Callable[[Path], str | None]
) -> list[ToolChoice]:
    """The agent's own tools; ``read`` gives a function's source (None: not readable)."""
    found: list[ToolChoice] = []
    for tool in tools_section(text):
        if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
            continue
        kind = tool.get("type")
        if kind not in _NAMED_KINDS:
            continue
        name = tool["name"]
        if kind in _SEARCH_KINDS:
            found.append(ToolChoice(name, SEARCH_ARGUMENTS, f"{kind} tool"))
        elif isinstance(tool.get("parameters"), dict) and tool["parameters"]:
            found.append(ToolChoice(name, tuple(map(str, tool["parameters"])), f"{kind} tool"))
        elif kind == "function":
            found.append(_function(name, tool, folder, read))
        else:
            found.append(ToolChoice(name, (), f"{kind} tool"))
    return found


def _function(name: str, tool: dict[str, Any], folder: Path, read: Callable[[Path], str | None]
              ) -> ToolChoice:
    file, function = tool.get("file"), tool.get("function")
    if not (isinstance(file, str) and isinstance(function, str)) or "${" in file:
        return ToolChoice(name, (), "function tool")
    source = read(folder / file)
    signature = function_signature(source, function) if source is not None else None
    arguments = signature.names if signature is not None else ()
    return ToolChoice(name, arguments, f"function {function} in {file}")


def seen_tools(calls: Iterable[Call], where: str, known: Iterable[str]) -> list[ToolChoice]:
    """Tools that calls carried and the agent file does not name (an MCP server's), with
    every argument name they were called with."""
    taken = set(known)
    arguments: dict[str, dict[str, None]] = {}
    for name, args in calls:
        if name not in taken:
            arguments.setdefault(name, {}).update(dict.fromkeys(args))
    return [ToolChoice(n, tuple(a), f"seen in {where}") for n, a in arguments.items()]


def recorded_calls(text: str) -> Iterator[Call]:
    """The tool calls of a recording (`run --record`: a JSON object per line, the reply's
    `tool_invocations`, runner/execute/recording.py); lines that are not are skipped."""
    for line in text.splitlines():
        try:
            entry = loads(line, MAX_FILE_DEPTH)
        except ValueError:
            continue
        reply = entry.get("reply") if isinstance(entry, dict) else None
        calls = reply.get("tool_invocations") if isinstance(reply, dict) else None
        for call in calls if isinstance(calls, list) else []:
            if isinstance(call, dict) and isinstance(call.get("name"), str):
                args = call.get("args")
                yield call["name"], [str(k) for k in args] if isinstance(args, dict) else []
