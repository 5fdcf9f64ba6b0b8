"""The server given every YAML file, as editors that attach it to each YAML buffer do:
the files that are not HoloDeck's get no diagnostic, no hover and no completion."""

from __future__ import annotations

import shutil
from pathlib import Path

from lsprotocol import types

from tests.conftest import FOREIGN_YAML
from tests.server.lsp_client import Client, open_doc
from tests.server.shared_servers import SHARES_SERVERS
from tests.server.test_diagnostics import BROKEN

pytestmark = SHARES_SERVERS


async def test_yaml_of_other_tools_gets_nothing_from_the_server(
    push: Client, workspace: Path
) -> None:
    root = workspace / "other-tools"
    shutil.copytree(FOREIGN_YAML, root)
    foreign = sorted(p for p in root.rglob("*") if p.suffix in (".yaml", ".yml"))
    opened = [open_doc(push, path) for path in foreign]  # language id `yaml`
    agent = open_doc(push, workspace / "bot.agent.yaml", BROKEN)
    # One worker, in order: every foreign file was judged before the agent.
    assert [d.code for d in await push.diagnostics_of(agent)] == ["HL104", "HL103"]
    assert sorted({p.uri for p in push.published} & set(opened)) == []

    # A Semantic Kernel agent shares `name`, `model`, `instructions` with ours: not ours.
    sk = opened[foreign.index(root / "sk" / "story_agent.yaml")]
    at = types.TextDocumentPositionParams(types.TextDocumentIdentifier(sk), types.Position(3, 3))
    hover = await push.text_document_hover_async(types.HoverParams(at.text_document, at.position))
    assert hover is None
    found = await push.text_document_completion_async(
        types.CompletionParams(at.text_document, types.Position(6, 2))
    )
    items = found.items if isinstance(found, types.CompletionList) else found or []
    assert list(items) == []
