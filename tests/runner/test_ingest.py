"""From a tool's source to chunks: paragraphs as HoloDeck cuts them, CSV as a table,
structured records, markdown sections, and sources this runner refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from holodeck_lsp.models.tools import VectorstoreTool
from holodeck_lsp.runner.tools.retrieval.bm25 import BM25, fuse
from holodeck_lsp.runner.tools.retrieval.ingest.paragraphs import split_paragraphs
from holodeck_lsp.runner.tools.retrieval.ingest.records import load_records
from holodeck_lsp.runner.tools.retrieval.ingest.sections import structure_chunks, token_chunks
from holodeck_lsp.runner.tools.retrieval.ingest.sources import (
    SourceError,
    discover,
    read_text,
    resolve_source,
)
from tests.runner.sample_files import one_page_pdf


def test_paragraphs_pack_whole_lines_and_cut_long_ones_at_sentence_ends() -> None:
    text = (
        "# Title\n\n"
        "The first paragraph is short.\n\n"
        "The second one is much longer. It has two sentences that will not fit together.\n"
        "Last line."
    )
    # 15 tokens = 60 characters at four characters a token; blank lines go.
    assert split_paragraphs(text, 15) == [
        "# Title\nThe first paragraph is short.",
        "The second one is much longer.",
        "It has two sentences that will not fit together.\nLast line.",
    ]


def test_a_short_last_chunk_is_folded_into_the_one_before() -> None:
    text = "alpha beta gamma delta epsilon zeta eta theta iota kappa\nend"
    assert split_paragraphs(text, 16) == [
        "alpha beta gamma delta epsilon zeta eta theta iota kappa\nend"
    ]


def test_csv_is_read_as_a_markdown_table(tmp_path: Path) -> None:
    (tmp_path / "t.csv").write_text("year,revenue\n2019,10\n2020,12,late\n")
    assert read_text(tmp_path / "t.csv") == (
        "| year | revenue |  |\n| --- | --- | --- |\n| 2019 | 10 |  |\n| 2020 | 12 | late |"
    )


def test_folders_are_searched_recursively_for_supported_files(tmp_path: Path) -> None:
    for name in ("b.md", "a/c.txt", "a/d.json", "e.png", "f.csv"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    assert [p.relative_to(tmp_path).as_posix() for p in discover(tmp_path)] == [
        "a/c.txt",
        "a/d.json",
        "b.md",
        "f.csv",
    ]


def test_remote_and_missing_sources_are_refused(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="s3:// sources are not fetched by this runner"):
        resolve_source("s3://bucket/docs", tmp_path)
    with pytest.raises(SourceError, match="does not exist"):
        discover(resolve_source("missing", tmp_path))
    assert resolve_source("file:///srv/docs", tmp_path) == Path("/srv/docs")


def _tool(**fields: object) -> VectorstoreTool:
    return VectorstoreTool.model_validate(
        {"name": "t", "description": "d", "source": "x", **fields}
    )


def test_json_records_at_a_record_path_with_metadata(tmp_path: Path) -> None:
    (tmp_path / "faq.json").write_text(
        '{"data": {"items": ['
        '{"id": 1, "q": "How?", "a": "Like this.", "tag": "howto", "n": null},'
        '{"id": 2, "q": "", "a": null, "tag": "empty"},'
        '{"id": 3, "q": "Why?", "a": "Because.", "tag": "why"}]}}'
    )
    tool = _tool(
        vector_field=["q", "a"], id_field="id", meta_fields=["tag", "n"], record_path="data.items"
    )
    records = list(load_records(tmp_path / "faq.json", tool))
    assert [(r.id, r.text, r.metadata) for r in records] == [
        ("1", "How?\nLike this.", {"tag": "howto", "n": ""}),
        ("3", "Why?\nBecause.", {"tag": "why", "n": ""}),
    ]


def test_csv_records_name_their_missing_fields(tmp_path: Path) -> None:
    (tmp_path / "p.csv").write_text("sku;name\nA1;Widget\n")
    assert [
        r.metadata
        for r in load_records(tmp_path / "p.csv", _tool(vector_field="name", id_field="sku"))
    ] == [{}]
    with pytest.raises(SourceError, match="no field 'title' in the records"):
        list(load_records(tmp_path / "p.csv", _tool(vector_field="title", id_field="sku")))
    with pytest.raises(SourceError, match=r"record_path 'data\.rows': no 'data'"):
        (tmp_path / "r.json").write_text("[]")
        list(
            load_records(
                tmp_path / "r.json", _tool(vector_field="a", id_field="b", record_path="data.rows")
            )
        )


def test_markdown_sections_know_their_headings() -> None:
    text = (
        "Intro text.\n\n# Policy\nOverview.\n\n## Refunds\nWithin 30 days.\n\n"
        "```\n# not a heading\n```\n\n## Returns\nUnused items.\n\n# Contact\nMail us."
    )
    got = [(s.parents, s.title, s.section_id, s.text) for s in structure_chunks(text, 800)]
    assert got == [
        ([], "", "chunk_0", "Intro text."),
        ([], "Policy", "policy", "# Policy\nOverview."),
        (
            ["Policy"],
            "Refunds",
            "policy.refunds",
            "## Refunds\nWithin 30 days.\n\n```\n# not a heading\n```",
        ),
        (["Policy"], "Returns", "policy.returns", "## Returns\nUnused items."),
        ([], "Contact", "contact", "# Contact\nMail us."),
    ]


def test_token_windows_overlap() -> None:
    text = "".join(f"{i:04d}" for i in range(10))  # 40 characters, 10 tokens
    assert [s.text for s in token_chunks(text, 4, 2)] == [
        "0000000100020003",
        "0002000300040005",
        "0004000500060007",
        "0006000700080009",
    ]


def test_bm25_ranks_rare_terms_higher_and_fusion_normalises() -> None:
    index = BM25(["the cat sat", "the dog sat", "the cat and the cat", "a bird flew", "fish"])
    assert [i for i, _ in index.top("cat", 5)] == [2, 0]
    assert index.top("unicorn", 5) == []
    fused = fuse([["a", "b"], ["b", "c"]], [0.5, 0.5], 60)
    assert [k for k, _ in fused] == ["b", "a", "c"]
    assert fused[0][1] == pytest.approx((1 / 62 + 1 / 61) / 2 / (1 / 61))


def test_pdf_text_is_read_and_a_damaged_pdf_is_named(tmp_path: Path) -> None:
    (tmp_path / "manual.pdf").write_bytes(one_page_pdf("The boiler pressure limit is 3 bar."))
    assert read_text(tmp_path / "manual.pdf") == "The boiler pressure limit is 3 bar."
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\nnot really")
    with pytest.raises(SourceError, match=r"broken\.pdf: not a readable PDF"):
        read_text(tmp_path / "broken.pdf")
