"""A field path written as text reads back as the same path (diagnostics and run events
write it, the editor reads it to place them)."""

from __future__ import annotations

import pytest

from holodeck_lsp.validation.yaml.path_text import format_path, parse_path

PATHS = [
    ("test_cases", 0, "turns", 1, "expected_tools", 0, "args", "b"),
    ("model",),
    ("tools", 2, "config", "odd key"),
    ("headers", "X-Api-Key"),
    ("args", "it's \"quoted\" \\ here"),
    ("values", "1st"),
]


@pytest.mark.parametrize("path", PATHS)
def test_a_path_written_as_text_reads_back_the_same(path: tuple[object, ...]) -> None:
    assert parse_path(format_path(path)) == path


def test_the_written_form() -> None:
    written = format_path(("test_cases", 0, "turns", 1, "args", "odd key"))
    assert written == "test_cases[0].turns[1].args['odd key']"


def test_text_that_is_not_a_path_is_refused() -> None:
    with pytest.raises(ValueError, match="not a field path"):
        parse_path("test_cases[x]")
