"""The YAML path at a cursor, read from indentation on text that may not parse."""

from __future__ import annotations

from holodeck_lsp.editing.cursor import CursorContext, cursor_context, key_at

# Trailing spaces matter: lines 15 and 20 hold only the cursor's indentation.
DOC = "\n".join(
    [
        "name: a",
        "test_cases:",
        "  - name: x",
        "    turns:",
        "      - input: hi",
        "        expected_tools:",
        "          - name: search",
        "            args:",
        "              q:",
        "                fu",
        "          - na",
        "      - input: |",
        "          hello",
        "          wor",
        "        ground_truth: b",
        "        ",
        "  -",
        "    name: z",
        "tools:",
        "- name: t",
        "  ",
        "ev",
        "",
    ]
)
LINES = DOC.split("\n")


def at(line: int) -> CursorContext:
    found = cursor_context(DOC, line, len(LINES[line]))
    assert found is not None, line
    return found


def test_values_keys_and_items_are_placed_in_the_tree() -> None:
    assert at(0) == CursorContext(
        "value", ("name",), "a", 6, 7, 0, siblings={"test_cases": "", "tools": ""}
    )
    assert (at(4).mode, at(4).path) == ("value", ("test_cases", 0, "turns", 0, "input"))
    assert (at(9).mode, at(9).path, at(9).prefix) == (
        "key",
        ("test_cases", 0, "turns", 0, "expected_tools", 0, "args", "q"),
        "fu",
    )
    assert (at(10).mode, at(10).path, at(10).on_dash) == (
        "key",
        ("test_cases", 0, "turns", 0, "expected_tools", 1),
        True,
    )
    assert (at(15).mode, at(15).path) == ("key", ("test_cases", 0, "turns", 1))
    assert (at(16).mode, at(16).path, at(16).lead) == ("key", ("test_cases", 1), " ")
    assert (at(20).mode, at(20).path) == ("key", ("tools", 0))
    assert (at(21).mode, at(21).path, at(21).prefix) == ("key", (), "ev")


def test_nothing_is_claimed_inside_a_block_scalar_or_a_comment() -> None:
    assert cursor_context(DOC, 12, 10) is None and cursor_context(DOC, 13, 10) is None
    assert cursor_context("a: b  # comm", 0, 11) is None


def test_siblings_exclude_the_line_being_typed_and_other_items() -> None:
    assert at(15).siblings == {"input": "|", "ground_truth": "b"}
    assert at(10).siblings == {}


def test_key_at_finds_the_entry_under_the_cursor() -> None:
    found = key_at(DOC, 6, 14)
    assert found is not None
    assert (found.path, found.part, found.start, found.end) == (
        ("test_cases", 0, "turns", 0, "expected_tools", 0, "name"),
        "key",
        12,
        16,
    )
    found = key_at(DOC, 6, 20)
    assert found is not None and (found.part, found.start, found.end) == ("value", 18, 24)
