"""A regex error points at the offending character through quotes, escapes and folding."""

from __future__ import annotations

from pathlib import Path

import pytest

from holodeck_lsp.validation.validate import ValidationContext, validate_text

HEAD = """name: a
model: {provider: openai, name: gpt-4o}
instructions: {inline: hi}
test_cases:
  - input: go
    expected_tools:
      - name: t
        args:
"""


@pytest.mark.parametrize(
    ("value_line", "column"),
    [
        ('          q: {regex: "ab(c"}', 24),  # position 2 of the pattern: the "("
        ("          q: {regex: 'it''s (x'}", 28),  # '' is one quote in the value
        ('          q: {regex: "\\\\d+\\\\s(x"}', 29),  # an escape is two source chars
        ("          q: {regex: ab(c}", 23),  # plain scalar
        ("          q:\n            regex: |\n              ab\n              c(d", (11, 15)),
    ],
)
def test_regex_error_column(value_line: str, column: int | tuple[int, int]) -> None:
    result = validate_text(
        HEAD + value_line + "\n", Path("agent.yaml"), ValidationContext(user_config_dir=None)
    )
    [d] = [d for d in result.diagnostics() if d.code == "HL401"]
    line, col = column if isinstance(column, tuple) else (8, column)
    assert (d.range.start.line, d.range.start.character) == (line, col)
    assert d.range.end.character == col + 1
