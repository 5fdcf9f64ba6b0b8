"""The open documents: text, version and language, kept in sync with the client."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pygls.uris import to_fs_path

from holodeck_lsp.server.positions import UTF16, PositionMap

if TYPE_CHECKING:
    from lsprotocol import types


@dataclass
class Document:
    uri: str
    path: Path
    text: str
    version: int | None
    language_id: str
    _positions: PositionMap | None = field(default=None, repr=False, compare=False)

    def positions(self, encoding: str) -> PositionMap:
        """The line table of the current text (built when missing)."""
        cached = self._positions
        if cached is None or cached.text is not self.text or cached.encoding != encoding:
            cached = self._positions = PositionMap(self.text, encoding)
        return cached


def uri_path(uri: str) -> Path:
    """The file-system path of a URI (non-file URIs map to a path under their name)."""
    fs = to_fs_path(uri)
    return Path(fs).resolve() if fs else Path(uri)


class Documents:
    """Documents by URI, with incremental edits applied in the client's encoding."""

    def __init__(self) -> None:
        self._by_uri: dict[str, Document] = {}
        self.encoding: str = UTF16  # a plain str: see lifecycle.initialize

    def open(self, item: types.TextDocumentItem) -> Document:
        doc = Document(
            item.uri, uri_path(item.uri), item.text, item.version, item.language_id or ""
        )
        self._by_uri[item.uri] = doc
        return doc

    def change(
        self,
        uri: str,
        version: int | None,
        changes: Sequence[types.TextDocumentContentChangeEvent],
    ) -> Document | None:
        from lsprotocol.types import TextDocumentContentChangePartial  # loaded by now

        doc = self._by_uri.get(uri)
        if doc is None:
            return None
        text, positions = doc.text, doc._positions
        for change in changes:
            if isinstance(change, TextDocumentContentChangePartial):
                if positions is None or positions.text is not text:
                    positions = PositionMap(text, self.encoding)
                start = positions.offset(change.range.start)
                end = max(start, positions.offset(change.range.end))
                text = text[:start] + change.text + text[end:]
            else:
                text, positions = change.text, None  # a table is built when one is needed
        doc.text, doc._positions = text, positions
        doc.version = version
        return doc

    def close(self, uri: str) -> Document | None:
        return self._by_uri.pop(uri, None)

    def get(self, uri: str) -> Document | None:
        return self._by_uri.get(uri)

    def by_path(self, path: Path) -> Document | None:
        for doc in self._by_uri.values():
            if doc.path == path:
                return doc
        return None

    def all(self) -> list[Document]:
        return list(self._by_uri.values())
