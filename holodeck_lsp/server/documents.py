"""The open documents: text, version and language, kept in sync with the client."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types
from pygls.uris import to_fs_path

from holodeck_lsp.server.positions import PositionMap


@dataclass
class Document:
    uri: str
    path: Path
    text: str
    version: int | None
    language_id: str


def uri_path(uri: str) -> Path:
    """The file-system path of a URI (non-file URIs map to a path under their name)."""
    fs = to_fs_path(uri)
    return Path(fs).resolve() if fs else Path(uri)


class Documents:
    """Documents by URI, with incremental edits applied in the client's encoding."""

    def __init__(self) -> None:
        self._by_uri: dict[str, Document] = {}
        self.encoding: str = types.PositionEncodingKind.Utf16

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
        doc = self._by_uri.get(uri)
        if doc is None:
            return None
        text = doc.text
        for change in changes:
            if isinstance(change, types.TextDocumentContentChangePartial):
                positions = PositionMap(text, self.encoding)
                start = positions.offset(change.range.start)
                end = max(start, positions.offset(change.range.end))
                text = text[:start] + change.text + text[end:]
            else:
                text = change.text
        doc.text = text
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
