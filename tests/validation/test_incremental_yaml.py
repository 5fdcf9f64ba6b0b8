"""Parsing a suite item by item gives exactly what parsing it whole gives."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from holodeck_lsp.validation.validate import ValidationContext, validate_text
from holodeck_lsp.validation.yaml.incremental import ChunkedSourceMap, load_yaml_incremental
from holodeck_lsp.validation.yaml.loader import LoadedYaml, load_yaml
from tests.support.suites import suite

BASE = suite(16)  # just over the size where cutting starts
PAYLOAD = "".join(line[2:] + "\n" for line in BASE.split("test_cases:\n", 1)[1].splitlines())


def same(a: LoadedYaml, b: LoadedYaml) -> None:
    assert a.parsed == b.parsed
    if not b.parsed:
        # Both refuse the text; the editor may place the error within the broken case
        # (an unclosed quote at the end of its case, not of the file). `check` parses whole.
        assert a.problems and all(p.kind in ("syntax", "tab") for p in a.problems)
        return
    assert a.data == b.data
    assert sorted(map(repr, a.problems)) == sorted(map(repr, b.problems))
    whole = dict(b.source_map.items())
    chunked = dict(a.source_map.items())
    containers = {p for p, info in whole.items() if info.kind != "scalar"}
    assert {p: v for p, v in chunked.items() if p not in containers} == {
        p: v for p, v in whole.items() if p not in containers
    }
    for path in list(whole)[::37]:
        info = whole[path]
        line, col = info.value.line, info.value.col
        assert a.source_map.path_at(line, col) == b.source_map.path_at(line, col)


def test_a_large_suite_is_cut_into_items() -> None:
    loaded = load_yaml_incremental(BASE)
    assert isinstance(loaded.source_map, ChunkedSourceMap)
    same(loaded, load_yaml(BASE))


def test_a_large_test_case_list_file_is_cut_into_items() -> None:
    loaded = load_yaml_incremental(PAYLOAD)
    assert isinstance(loaded.source_map, ChunkedSourceMap)
    same(loaded, load_yaml(PAYLOAD))


def test_an_empty_value_ending_a_case_is_placed_at_the_next_case_as_a_whole_parse_does() -> None:
    # A key with no value at the end of a case: its empty value ends at the next token,
    # the next case's "-", not at column 0 of that line.
    text = BASE.replace(
        "\n          - Operating cash moved from 200007 to 180021.\n",
        "\n        ?  Operating cash moved from 200007 to 180021.\n",
    )
    assert text != BASE
    same(load_yaml_incremental(text), load_yaml(text))


def test_a_block_scalar_item_ending_the_file_ends_where_the_text_ends() -> None:
    # The last item of a list that runs to the end of the text: nothing is added after it,
    # or the block scalar would take in a line the file does not have.
    text = PAYLOAD + "- |\n"
    same(load_yaml_incremental(text), load_yaml(text))



def test_line_breaks_other_than_lf_and_crlf_are_counted_as_yaml_counts_them() -> None:
    # A lone CR (or NEL, LS, PS) ends a line for YAML; cutting counts lines by LF only.
    for brk in ("\r", "\x85", "\u2028", "\u2029"):
        text = BASE.replace("            count: 1\n", f"            count: 1{brk}\r\n\n", 1)
        same(load_yaml_incremental(text), load_yaml(text))


def test_a_dash_that_starts_a_plain_scalar_is_not_an_item() -> None:
    text = PAYLOAD.replace("- name: case 0", "-1\n- name: case 0", 1)
    same(load_yaml_incremental(text), load_yaml(text))

EDITS = [
    "",
    "x",
    ":",
    "- ",
    "  ",
    "\n",
    "\n  - input: new\n",
    "'",
    '"',
    "#",
    "{",
    "[",
    "  duplicate: 1\n  duplicate: 2\n",
    "&a ",
    "*a",
    "\t",
    "ground_truth: no\n",
    "---\n",
    "other: 1\n",
    "- stray\n",
    "\n- name: extra\n  input: hi\n",
    "    ",
    "|\n",
    "? ",
    "-1\n",
    "  -x\n",
    "-\n",
    "\r\n",
    "\r",
    "\u2028",
    "\x85",
]


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([BASE, PAYLOAD]),
    st.lists(
        st.tuples(st.floats(0, 1), st.sampled_from(EDITS), st.integers(0, 8)),
        min_size=1,
        max_size=3,
    ),
)
def test_edited_suites_parse_the_same_both_ways(text: str, edits: list) -> None:
    for where, insert, delete in edits:
        pos = int(where * len(text))
        text = text[:pos] + insert + text[pos + delete :]
    same(load_yaml_incremental(text), load_yaml(text))


def test_diagnostics_are_the_same_both_ways() -> None:
    text = BASE.replace('ground_truth: "200007"', "ground_truth: 200007").replace(
        'regex: "^2005$"', 'regex: "^(2005$"'
    )
    whole = validate_text(text, Path("agent.yaml"), ValidationContext(user_config_dir=None))
    cut = validate_text(
        text, Path("agent.yaml"), ValidationContext(user_config_dir=None, incremental=True)
    )
    assert [d.code for d in whole.diagnostics()].count("HL103") == 1
    assert cut.by_file == whole.by_file
