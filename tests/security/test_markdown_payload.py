"""Issue 29, item 3: no string read from a report is live in Markdown. A report is a file
anyone can edit (a shard a fork's CI made, a downloaded artefact), and the Markdown we
write of it lands in a pull-request comment or a job summary, where an image loads (a
tracking pixel), an @mention notifies, `<details>` or a link renders.

The same text is put in every string field of a report (the model is walked, so a new
field holds it too; dictionary keys and environment values included), every Markdown
writer (`markdown_writers.WRITERS`) writes it, and a CommonMark renderer with GitHub's
tables parses the result: the text appears only inside code, and the document has the
shape it has with a harmless text. A field a reader parses (a timestamp, `shard`, ...)
holding it is refused in one sentence naming the file and the field, or ignored.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from markdown_it.token import Token

from tests.runner.conftest import _forget_user_code  # noqa: F401 (autouse: user code unloaded)
from tests.security.markdown_writers import WRITERS, Refused, Reports
from tests.security.report_payload import (
    parsed_fields,
    payload_report,
    set_at,
    write_report,
)
from tests.security.test_output_hygiene import rendered

# What GitHub would render live: an image (a tracking pixel), an @mention, raw HTML, a
# link (inline, autolink, bare), a heading, a table row, a code fence, a comment...
ATTACK = (
    "![hl-pixel](http://x.invalid/hl-pixel.png) @hl-mention "
    "<details open><summary>hl-details</summary> <img src=x onerror=hl-onerror()> "
    "[hl-link](http://x.invalid/) <http://x.invalid/hl-autolink> www.x.invalid/hl-bare "
    "\n# hl-heading\n| hl-table | cell |\n|---|---|\n\n```\nhl-fence\n``` ~~~ ` \\ "
    "*hl-em* &#60;hl-entity&#62; <!-- hl-comment -->\n\n- hl-list\n> hl-quote\r\n"
)
MARKERS = set(re.findall(r"hl-[a-z]+", ATTACK))
HARMLESS = "words and nothing else"
CODE = ("code_inline", "code_block", "fence")


def _reports(folder: Path, text: str) -> Reports:
    folder.mkdir()
    made = {
        name: write_report(folder / f"{name}.json", payload_report(lambda path: f"{path} {text}",
                                                                   passed))
        for name, passed in (("passing", True), ("failing", False))
    }  # fmt: skip
    return Reports(made["passing"], made["failing"], folder)


def _live(tokens: list[Token]) -> list[str]:
    """Each token outside code that holds a piece of the attack, and every image or link."""
    found = []
    for token in tokens:
        if token.type in CODE or token.type == "inline":  # an inline's children are looked at
            continue
        text = token.content + "".join(str(v) for v in token.attrs.values())
        if token.type in ("image", "link_open") or any(m in text for m in MARKERS):
            found.append(f"{token.type}: {text[:200]!r}")
    return found


def _shape(tokens: list[Token]) -> list[str]:
    """The document's blocks: headings, paragraphs, tables and their rows and cells..."""
    return [f"{t.type} {t.tag}" for t in tokens if t.block and t.type != "inline"]


def _in_code(tokens: list[Token]) -> bool:
    return any(m in t.content for t in tokens if t.type in CODE for m in MARKERS)


@pytest.mark.parametrize("name", WRITERS)
def test_no_string_of_a_report_is_live_in_markdown(tmp_path: Path, name: str) -> None:
    writer = WRITERS[name]
    hostile = writer(_reports(tmp_path / "hostile", ATTACK))
    harmless = writer(_reports(tmp_path / "harmless", HARMLESS))
    assert hostile and len(hostile) == len(harmless)
    for text, plain in zip(hostile, harmless, strict=True):
        tokens = rendered(text)
        assert _live(tokens) == [], text
        assert _in_code(tokens), text  # the text was written: as code
        assert _shape(tokens) == _shape(rendered(plain)), text


PARSED = list(parsed_fields())


@pytest.mark.parametrize(("field", "where"), PARSED, ids=[field for field, _ in PARSED])
def test_a_parsed_field_holding_the_text_is_refused_or_ignored(
    tmp_path: Path, field: str, where: list[str | int]
) -> None:
    reports = _reports(tmp_path / "reports", HARMLESS)
    for path in reports.both:
        write_report(path, set_at(json.loads(path.read_text(encoding="utf-8")), where, ATTACK))
    refused = []
    for name, writer in WRITERS.items():
        try:
            texts = writer(reports)
        except Refused as exc:
            message = str(exc)
            assert message.count("\n") <= 1 and str(reports.folder) in message, message
            assert field.rsplit(".", 1)[-1] in message, message
            refused.append(name)
            continue
        for text in texts:
            assert _live(rendered(text)) == [], (name, text)
    if field.endswith("timestamp"):  # parsed as ISO 8601 wherever a report is read
        assert refused == list(WRITERS)
