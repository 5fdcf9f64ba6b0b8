"""Document symbols: sections, test cases and their turns."""

from __future__ import annotations

from lsprotocol import types

from holodeck_lsp.editing.outline import Symbol, outline
from holodeck_lsp.server.positions import PositionMap
from holodeck_lsp.server.routes import Route
from holodeck_lsp.server.session import Session
from holodeck_lsp.validation.diagnostics import Range

Result = list[types.DocumentSymbol] | list[types.SymbolInformation]
_KINDS = {
    "section": types.SymbolKind.Module,
    "test-case": types.SymbolKind.Class,
    "turn": types.SymbolKind.Method,
}


def _range(positions: PositionMap, r: Range) -> types.Range:
    return positions.range_to_lsp((r.start.line, r.start.character), (r.end.line, r.end.character))


def _tree(positions: PositionMap, symbol: Symbol) -> types.DocumentSymbol:
    return types.DocumentSymbol(
        name=symbol.name or "?",
        kind=_KINDS[symbol.kind],
        detail=symbol.detail or None,
        range=_range(positions, symbol.range),
        selection_range=_range(positions, symbol.selection),
        children=[_tree(positions, child) for child in symbol.children] or None,
    )


def _flat(
    positions: PositionMap, uri: str, symbols: list[Symbol], container: str | None = None
) -> list[types.SymbolInformation]:
    out = []
    for symbol in symbols:
        out.append(
            types.SymbolInformation(
                name=symbol.name or "?",
                kind=_KINDS[symbol.kind],
                location=types.Location(uri, _range(positions, symbol.range)),
                container_name=container,
            )
        )
        out.extend(_flat(positions, uri, list(symbol.children), symbol.name))
    return out


async def document_symbols(session: Session, params: types.DocumentSymbolParams) -> Result:
    uri = params.text_document.uri
    doc = session.documents.get(uri)
    if doc is None or not await session.serves(doc):
        return []
    text = doc.text
    symbols = await session.query(doc, outline, text)
    if symbols is None:  # the text does not parse now: show its last outline
        text, symbols = session.outlines.get(uri, ("", []))
    else:
        session.outlines[uri] = (text, symbols)
    positions = PositionMap(text, session.encoding)
    if session.features.hierarchical_symbols:
        return [_tree(positions, s) for s in symbols]
    return _flat(positions, uri, symbols)


ROUTES = [Route(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, document_symbols, empty=list)]
