"""Hundreds of random edits through the protocol: the server keeps up and stays right.

After each burst the server must still answer requests, and the diagnostics it
publishes for the last version must be exactly those of the text the client holds,
which also proves that incremental edits (in UTF-16 positions) were applied right.
Set HOLODECK_LSP_SEED to replay one run.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
from lsprotocol import types

from holodeck_lsp.validation.diagnostics import Severity
from holodeck_lsp.validation.validate import ValidationContext, validate_text
from tests.server.lsp_client import SOURCE, Client, edit, open_doc
from tests.server.shared_servers import SHARES_SERVERS

pytestmark = SHARES_SERVERS

STEPS = 300
SEED = int(os.environ.get("HOLODECK_LSP_SEED", "0"))
FRAGMENTS = [
    "input: ",
    "turns:\n",
    "      - ",
    "  ",
    "\n",
    "\r\n",
    "- ",
    ": ",
    "#",
    "'",
    '"',
    "{fuzzy: ",
    "{regex: '(",
    "}",
    "[",
    "]",
    "\t",
    "count: true",
    "ground_truth: 4",
    "😀",
    "\ufffd",
    "é",
    "\n        gro",
    "\n  - name: half",
    "expected_tools:\n          - ",
    "&a ",
    "*a",
    "!!str ",
    "grader: graders:exact_match",
    "test_cases_file: nowhere.yaml",
    "---\n",
    "|\n",
]
_BREAK = re.compile(r"\r\n|\r|\n")
# Second phase: values swapped in place, so the YAML stays readable and the models speak.
VALUES = [
    "4",
    "true",
    "''",
    "opnai",
    "equalty",
    "0",
    "x",
    "[]",
    "{}",
    "null",
    '"ok"',
    "graders:nothing",
    "😀",
    "-1",
    "{fuzzy: 3}",
    "{regex: '(('}",
]
_VALUE = re.compile(r"(?<=: )[^\s#][^\n#]*")


def _lsp_position(text: str, offset: int) -> tuple[int, int]:
    """An offset as the client states it: line by \\r\\n, \\r or \\n; UTF-16 units."""
    starts = [0] + [m.end() for m in _BREAK.finditer(text)]
    line = max(i for i, s in enumerate(starts) if s <= offset)
    prefix = text[starts[line] : offset]
    return line, len(prefix.encode("utf-16-le")) // 2


def _addressable(text: str, offset: int) -> int:
    """No client position falls between \\r and \\n."""
    if 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n":
        return offset - 1
    return offset


def _value_edit(rng: random.Random, text: str) -> tuple[int, int, str]:
    spots = list(_VALUE.finditer(text))
    if not spots:
        return len(text), len(text), ""
    spot = rng.choice(spots)
    return spot.start(), spot.end(), rng.choice(VALUES)


def _random_edit(rng: random.Random, text: str) -> tuple[int, int, str]:
    start = _addressable(text, rng.randint(0, len(text)))
    roll = rng.random()
    if roll < 0.45:
        return start, start, rng.choice(FRAGMENTS)
    if roll < 0.8:
        end = _addressable(text, min(len(text), start + rng.randint(1, 40)))
        return start, max(start, end), ""
    if roll < 0.97:
        end = _addressable(text, min(len(text), start + rng.randint(1, 10)))
        return start, max(start, end), rng.choice(FRAGMENTS)
    return start, start, "x" * rng.randint(5_000, 30_000)  # a huge line


_SEVERITIES = {Severity.ERROR: 1, Severity.WARNING: 2, Severity.INFORMATION: 3, Severity.HINT: 4}


def _expected(text: str, path: Path, home: Path, root: Path) -> list[tuple[object, ...]]:
    """What the server must publish for ``text``, computed here independently."""
    result = validate_text(
        text, path, ValidationContext(user_config_dir=home / ".holodeck", search_paths=[root])
    )
    yaml_lines = re.split(r"\r\n|\r|\n", text)  # no U+0085/2028/2029 in the fragments

    def units(line: int, col: int) -> tuple[int, int]:
        if line >= len(yaml_lines):
            return len(yaml_lines) - 1, len(yaml_lines[-1].encode("utf-16-le")) // 2
        return line, len(yaml_lines[line][:col].encode("utf-16-le")) // 2

    out: list[tuple[object, ...]] = []
    for d in result.diagnostics(str(path)):
        s, e = d.range.start, d.range.end
        out.append(
            (
                units(s.line, s.character),
                units(e.line, e.character),
                d.code,
                d.message,
                _SEVERITIES[d.severity],
            )
        )
    return out


@pytest.mark.parametrize("name", ["agent.yaml", "cases.yaml", "suite.agent.yaml"])
async def test_random_edits_keep_the_server_answering_and_right(
    push: Client, workspace: Path, name: str
) -> None:
    seed = SEED or sum(map(ord, name))
    rng = random.Random(seed)
    path = workspace / name
    text = path.read_text()
    doc = open_doc(push, path, text)
    ident = types.TextDocumentIdentifier(doc)
    version = 1
    for step in range(STEPS + 1 + STEPS // 10):
        if step < STEPS:  # a storm of edits, most of which break the YAML
            start, end, new = _random_edit(rng, text)
        elif step == STEPS:  # all of it replaced by the original, in one edit
            start, end, new = 0, len(text), path.read_text()
        else:  # then values swapped one by one
            start, end, new = _value_edit(rng, text)
        version += 1
        edit(push, doc, version, _lsp_position(text, start), _lsp_position(text, end), new)
        text = text[:start] + new + text[end:]
        if step % 30 == 0:  # requests in the middle of the storm get answers
            line, col = _lsp_position(text, rng.randint(0, len(text)))
            where = types.Position(line, col)
            await push.text_document_hover_async(types.HoverParams(ident, where))
            found = await push.text_document_completion_async(types.CompletionParams(ident, where))
            assert isinstance(found, types.CompletionList), seed
            await push.text_document_document_symbol_async(types.DocumentSymbolParams(ident))
    published = await push.diagnostics_of(doc, version=version)
    got = [
        (
            (d.range.start.line, d.range.start.character),
            (d.range.end.line, d.range.end.character),
            d.code,
            d.message,
            d.severity.value if d.severity else 0,
        )
        for d in published
    ]
    assert all(d.source == SOURCE for d in published)
    assert got == _expected(text, path, workspace.parent / "home", workspace), f"seed {seed}"
    await push.text_document_hover_async(types.HoverParams(ident, types.Position(0, 1)))
