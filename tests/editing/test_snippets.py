"""Every template, with its placeholders at their defaults, is valid for its model."""

from __future__ import annotations

import pytest
import yaml

from holodeck_lsp.editing import snippets


@pytest.mark.parametrize("snippet", snippets.ALL, ids=lambda s: s.label)
def test_each_template_validates_as_its_model(snippet: snippets.Snippet) -> None:
    data = yaml.safe_load(snippets.plain(snippet.body))
    if snippet.model is None:  # a matcher: the value of one argument
        assert set(data) <= {"fuzzy", "regex"} and len(data) == 1
        assert all(isinstance(v, str) for v in data.values())
    else:
        snippet.model.model_validate(data)


def test_render_places_a_body_at_a_column_with_or_without_a_dash() -> None:
    body = "name: ${1:x}\nturns:\n  - input: ${2:y}$0"
    assert snippets.render(body, 4) == "name: ${1:x}\n    turns:\n      - input: ${2:y}$0"
    assert snippets.render(body, 2, dash=True) == (
        "- name: ${1:x}\n    turns:\n      - input: ${2:y}$0"
    )
    assert snippets.plain(snippets.render(body, 2, dash=True)) == (
        "- name: x\n    turns:\n      - input: y"
    )
