"""Loading a text straight from the parser's events gives exactly what composing nodes
first gives (data, positions, problems), and anything unusual is left to the node builder."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from holodeck_lsp.validation.yaml import event_loader, loader
from tests.conftest import CORPUS, FIXTURES
from tests.support.suites import suite


def _both(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[loader.LoadedYaml, ...]:
    from_events = loader.load_yaml(text)
    with monkeypatch.context() as patched:
        patched.setenv("HOLODECK_LSP_WITHOUT", "event-loader")  # the hack off
        from_nodes = loader.load_yaml(text)
    return from_events, from_nodes


def _assert_same(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = _both(text, monkeypatch)
    assert a.parsed == b.parsed
    assert repr(a.data) == repr(b.data)  # repr: NaN and types compared too
    assert list(map(repr, a.problems)) == list(map(repr, b.problems))
    assert dict(a.source_map.items()) == dict(b.source_map.items())


FILES = sorted(
    [*FIXTURES.rglob("*.yaml"), *FIXTURES.rglob("*.yml"), *CORPUS.rglob("*.yaml")],
    key=str,
)


def test_every_fixture_and_corpus_file_loads_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(FILES) > 100
    for file in FILES:
        _assert_same(file.read_text(encoding="utf-8", errors="replace"), monkeypatch)
    _assert_same(suite(20), monkeypatch)


UNUSUAL = {
    "alias": "a: &x [1]\nb: *x\n",
    "merge key": "a: &x {k: 1}\nb:\n  <<: *x\n",
    "duplicate key": "a: 1\na: 2\n",
    "list as a key": "? [a, b]\n: 1\n",
    "tag without a constructor": "a: !custom 1\n",
    "value its tag cannot build": "a: !!int abc\n",
    "invalid timestamp": "a: 2001-13-45\n",
    "two documents": "a: 1\n---\nb: 2\n",
    "tab": "a:\t1\n",
    "syntax error": "a: [1, 2\n",
    "nesting past the limit": "a: " + "[" * 70 + "]" * 70 + "\n",
}


@pytest.mark.parametrize("name", sorted(UNUSUAL))
def test_an_unusual_text_is_left_to_the_node_builder(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert event_loader._from_events(UNUSUAL[name]) is None
    _assert_same(UNUSUAL[name], monkeypatch)


PIECES = [
    "a: 1", "b: yes", "c: ~", "d: 2001-12-14", "e: 0777", "f: 1.5e3", "g: .nan", "h: 'x'",
    'i: "\\u00e9"', "j: !!str 12", "k: !!binary aGk=", "- 1", "- x: 1", "  y: [1, {z: 2}]",
    "l:", "  - m", "  - n: |", "      text", "o: &p 1", "q: *p", "<<: {r: 1}", "a: 2",
    "? s", ": t", "u: {", "}", "v:\tw", "---", "# c", "x: >-", "  folded", "'': 1", "~: 2",
    "1: int key", "y: [a, b,]", "z: !!set {a}", "  - deep: [[[1]]]", "é: ü",
]


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.sampled_from(PIECES), min_size=1, max_size=12))
def test_random_texts_load_the_same(lines: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _assert_same("\n".join(lines) + "\n", monkeypatch)


def test_a_generated_suite_is_built_from_events() -> None:
    assert event_loader._from_events(suite(3)) is not None
