"""initialize / initialized / shutdown / exit, settings and workspace folders."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from lsprotocol import types

from holodeck_lsp.server import code_cache, timing
from holodeck_lsp.server.initialization import read_params
from holodeck_lsp.server.open_documents import uri_path
from holodeck_lsp.server.protocol import Protocol
from holodeck_lsp.server.routes import Route
from holodeck_lsp.server.session import Session
from holodeck_lsp.server.settings import Settings, parse_settings

log = logging.getLogger(__name__)
SECTION = "holodeck"
_WATCHED = "**/*.{yaml,yml,py}"


def initialize(session: Session, params: types.InitializeParams) -> None:
    timing.mark("initialize read")
    protocol = session.server.protocol
    # The params as JSON: what pygls cannot read of them is left out, not an error.
    start = read_params(protocol.initialize_params if isinstance(protocol, Protocol) else None)
    session.features = start.features
    # A plain str: it goes to the worker in each snapshot.
    session.documents.encoding = start.encoding
    session.roots = list(start.roots)
    _log_problems(session, start.problems, "initializationOptions")
    session.init_settings = session.settings = start.settings


def _log_problems(session: Session, problems: Sequence[str], source: str) -> None:
    for problem in problems:
        session.log(
            f"holodeck settings ({source}): {problem}; using the default", types.MessageType.Warning
        )


def _apply(session: Session, raw: Any, base: Settings, source: str) -> Settings:
    settings, problems = parse_settings(raw, base)
    _log_problems(session, problems, source)
    return settings


async def _pull_configuration(session: Session) -> None:
    try:
        result = await session.server.workspace_configuration_async(
            types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])
        )
    except Exception as exc:  # keep the settings we have
        session.log(f"workspace/configuration failed: {exc}", types.MessageType.Warning)
        return
    raw = result[0] if isinstance(result, (list, tuple)) and result else None
    update_settings(session, raw, "workspace/configuration")


def update_settings(session: Session, raw: Any, source: str) -> None:
    if raw is None:
        return
    settings = _apply(session, raw, session.init_settings, source)
    if settings != session.settings:
        trust_changed = settings.workspace_trusted != session.settings.workspace_trusted
        session.settings = settings
        session.scheduler.revalidate_all()
        if trust_changed and session.features.code_lens_refresh:  # runs are offered, or not
            session.server.workspace_code_lens_refresh(None)


async def initialized(session: Session, params: types.InitializedParams) -> None:
    registrations = []
    if session.features.dynamic_watchers:
        registrations.append(
            types.Registration(
                id="holodeck-watched-files",
                method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(
                    watchers=[types.FileSystemWatcher(glob_pattern=_WATCHED)]
                ),
            )
        )
    if session.features.dynamic_configuration:
        registrations.append(
            types.Registration(
                id="holodeck-configuration",
                method=types.WORKSPACE_DID_CHANGE_CONFIGURATION,
                register_options=types.DidChangeConfigurationRegistrationOptions(section=SECTION),
            )
        )
    if registrations:
        try:
            await session.server.client_register_capability_async(
                types.RegistrationParams(registrations=registrations)
            )
        except Exception as exc:  # file events are a bonus, not a need
            session.log(f"the client refused to watch files: {exc}", types.MessageType.Warning)
    if session.features.configuration:
        await _pull_configuration(session)


async def did_change_configuration(
    session: Session, params: types.DidChangeConfigurationParams
) -> None:
    if session.features.configuration:
        await _pull_configuration(session)
        return
    raw = params.settings
    if isinstance(raw, dict) and SECTION in raw:
        raw = raw[SECTION]
    update_settings(session, raw, "workspace/didChangeConfiguration")


def did_change_folders(session: Session, params: types.DidChangeWorkspaceFoldersParams) -> None:
    removed = {uri_path(f.uri) for f in params.event.removed}
    roots = [r for r in session.roots if r not in removed]
    roots += [uri_path(f.uri) for f in params.event.added if uri_path(f.uri) not in roots]
    session.roots = roots
    session.scheduler.revalidate_all()


def shutdown(session: Session, params: None) -> None:
    session.stop()
    code_cache.save()


def exit_(session: Session, params: None) -> None:
    session.stop()


ROUTES = [
    Route(types.INITIALIZE, initialize),
    Route(types.INITIALIZED, initialized),
    Route(types.WORKSPACE_DID_CHANGE_CONFIGURATION, did_change_configuration),
    Route(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS, did_change_folders),
    Route(types.SHUTDOWN, shutdown),
    Route(types.EXIT, exit_),
]
