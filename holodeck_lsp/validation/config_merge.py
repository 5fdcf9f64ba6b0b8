"""Apply the project and user `config.yaml` to an agent, as HoloDeck does before it validates.

Named providers fill the agent's `model` (and `evaluations.model`) keys it does not set,
named vector stores resolve a vectorstore tool's string `database:`, `mcp_servers` join
the tools, and `deployment` is deep-merged under the agent's own.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from holodeck_lsp.models.project_config import GlobalConfig
from holodeck_lsp.validation.collector import Origin, SourceDoc, related_at, span_in
from holodeck_lsp.validation.diagnostics import RelatedInformation
from holodeck_lsp.validation.file_kinds import CONFIG_FILE_NAMES
from holodeck_lsp.validation.yaml.source_map import YamlPath

_PROVIDER_ALIASES = {"postgresql": "postgres"}


@dataclass
class ConfigFile:
    path: Path
    doc: SourceDoc
    data: dict[str, Any]
    broken: bool


def find_config(folder: Path) -> Path | None:
    """`config.yml` wins over `config.yaml` when both exist. A FIFO or a device by that
    name is found too: reading it is refused with an error (HL608), never attempted."""
    for name in CONFIG_FILE_NAMES:
        candidate = folder / name
        try:
            if candidate.exists() and not candidate.is_dir():
                return candidate
        except OSError:  # a name longer than the file system allows, say
            continue
    return None


def deep_merge(base: dict[str, Any], override: dict[str, Any]) -> None:
    """Merge ``override`` into ``base`` in place; nested mappings merge, the rest replaces."""
    for key, value in override.items():
        if isinstance(base.get(key), dict) and isinstance(value, dict):
            deep_merge(base[key], value)
        else:
            base[key] = value


def _validated(data: dict[str, Any]) -> GlobalConfig | None:
    try:
        return GlobalConfig.model_validate(data)
    except ValidationError as exc:
        # HoloDeck substitutes `${VAR}` before it validates, so a reference where a number
        # or a choice belongs is no reason to ignore the whole config: leave those values
        # out (their defaults apply) and keep the rest.
        trimmed = _without_env_values(data, exc)
    if trimmed is None:
        return None
    try:
        return GlobalConfig.model_validate(trimmed)
    except ValidationError:
        return None


def _without_env_values(data: dict[str, Any], exc: ValidationError) -> dict[str, Any] | None:
    """A copy of ``data`` without the failing values; None if one is not a `${VAR}`."""
    trimmed = copy.deepcopy(data)
    dropped: list[tuple[dict[str, Any], Any]] = []
    for error in exc.errors(include_url=False):
        parent: Any = None
        key: Any = None
        node: Any = trimmed
        for segment in error["loc"]:  # union tags and validator names are not in the data
            indexable = isinstance(node, list) and isinstance(segment, int) and segment < len(node)
            if indexable or (isinstance(node, dict) and segment in node):
                parent, key, node = node, segment, node[segment]
        if any(parent is p and key == k for p, k in dropped):
            continue  # one value, several union members refusing it
        if not (isinstance(node, str) and "${" in node and isinstance(parent, dict)):
            return None
        dropped.append((parent, key))
    for parent, key in dropped:
        del parent[key]
    return trimmed


def _combined(configs: list[ConfigFile]) -> GlobalConfig | None:
    models = []
    for config in configs:
        if not config.data:
            continue
        model = _validated(config.data)
        if model is not None:
            models.append(model)
    if not models:
        return None
    if len(models) == 1:
        return models[0]
    # Both exist: the loader merges full dumps (None values included), project over user.
    base = models[0].model_dump()
    deep_merge(base, models[1].model_dump())
    return GlobalConfig.model_validate(base)


def _fill_model(model: dict[str, Any], providers: dict[str, Any]) -> None:
    key = model.get("provider")
    if not key or not isinstance(key, str):
        return  # a list or mapping here makes HoloDeck crash; the model reports it
    entry = providers.get(key)
    if entry is None:
        entry = next((p for p in providers.values() if _provider_value(p) == key), None)
    if entry is None:
        return
    for name, value in entry.model_dump(exclude_unset=True).items():
        model.setdefault(name, value)


def _provider_value(entry: Any) -> Any:
    value = getattr(entry, "provider", None)
    return getattr(value, "value", value)


def merge_config(agent: dict[str, Any], configs: list[ConfigFile]) -> list[Origin]:
    """Apply the merged config files to the agent data in place.

    Returns where the merge put values a diagnostic should trace back to a config file:
    the vector stores that replace a tool's `database:` name.
    """
    merged = _combined(configs)
    origins: list[Origin] = []
    if merged is None or not agent:
        return origins
    providers = merged.providers or {}
    if isinstance(agent.get("model"), dict) and providers:
        _fill_model(agent["model"], providers)
        evaluations = agent.get("evaluations")
        if isinstance(evaluations, dict) and isinstance(evaluations.get("model"), dict):
            _fill_model(evaluations["model"], providers)
    tools = agent.get("tools")
    if merged.vectorstores and isinstance(tools, list):
        for index, tool in enumerate(tools):
            if isinstance(tool, dict) and tool.get("type") == "vectorstore":
                database = tool.get("database")
                if isinstance(database, str):
                    store = merged.vectorstores.get(database)
                    tool["database"] = None if store is None else _database(store)
                    origin = _store_origin(("tools", index, "database"), database, configs)
                    if store is not None and origin is not None:
                        origins.append(origin)
    if merged.mcp_servers:
        if not isinstance(agent.get("tools"), list):
            agent["tools"] = []
        # Only a text name can match a server's (a list or mapping cannot even be hashed).
        declared = [t for t in agent["tools"] if isinstance(t, dict)]
        names = {t["name"] for t in declared if isinstance(t.get("name"), str)}
        for server in merged.mcp_servers:
            if server.name not in names:
                agent["tools"].append(
                    server.model_dump(exclude_unset=True, exclude_none=True, mode="json")
                )
    if merged.deployment is not None:
        shared = merged.deployment.model_dump(exclude_unset=True)
        if "deployment" not in agent:
            agent["deployment"] = shared
        elif isinstance(agent["deployment"], dict):
            deep_merge(shared, agent["deployment"])
            agent["deployment"] = shared
    return origins


def execution_defaults(configs: list[ConfigFile]) -> dict[str, Any]:
    """The `execution:` settings of the config files, each from the project's config, else
    the user's: HoloDeck resolves each field from the command line, the agent, then these
    (`config/loader.py:resolve_execution_config`), and leaves the agent's own block as it
    is written."""
    found: dict[str, Any] = {}
    for config in reversed(configs):  # the project's config comes last in `configs`
        model = _validated(config.data) if config.data else None
        execution = model.execution if model is not None else None
        if execution is None:
            continue
        for name, value in execution.model_dump().items():
            if value is not None:
                found.setdefault(name, value)
    return found


def store_references(agent: dict[str, Any]) -> list[tuple[int, str]]:
    """(tool index, name) of each vectorstore tool whose `database:` names a vector store."""
    tools = agent.get("tools")
    if not isinstance(tools, list):
        return []
    return [
        (index, tool["database"])
        for index, tool in enumerate(tools)
        if isinstance(tool, dict)
        and tool.get("type") == "vectorstore"
        and isinstance(tool.get("database"), str)
        and tool["database"].strip()
        and "${" not in tool["database"]  # which store is known only once the variable is set
    ]


def store_names(configs: list[ConfigFile]) -> list[str]:
    """The vector stores the config files define, each once."""
    names: dict[str, None] = {}
    for config in configs:
        stores = (config.data or {}).get("vectorstores")
        if isinstance(stores, dict):
            names.update(dict.fromkeys(str(name) for name in stores))
    return list(names)


def _store_origin(at: YamlPath, name: str, configs: list[ConfigFile]) -> Origin | None:
    """The vector store ``name`` as the last config that defines it (the project's) wrote it."""
    config = next(
        (c for c in reversed(configs) if name in ((c.data or {}).get("vectorstores") or {})),
        None,
    )
    if config is None:
        return None
    store: YamlPath = ("vectorstores", name)

    def source(below: YamlPath) -> RelatedInformation:
        # A database key comes from the store's `options` when given there, else the store.
        options = (config.data["vectorstores"][name] or {}).get("options")
        if below and isinstance(options, dict) and below[0] in options:
            below = ("options", *below)
        return related_at(config.doc, span_in(config.doc, store + below), f"vector store {name!r}")

    return Origin(at, f"the database is vector store {name!r} of {config.path.name}", source)


def _database(store: Any) -> dict[str, Any]:
    from holodeck_lsp.models.tools import DatabaseConfig

    fields: dict[str, Any] = {
        "provider": _PROVIDER_ALIASES.get(store.provider.lower(), store.provider),
        "connection_string": store.connection_string,
    }
    fields.update(store.options or {})
    try:
        return DatabaseConfig.model_validate(fields).model_dump()
    except ValidationError:
        return fields
