"""Pathological YAML is a positioned diagnostic (HL007, HL005, HL001), never a resource
problem: alias bombs, deep nesting, huge documents, text the YAML reader refuses."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import yaml

from holodeck_lsp.validation.validate import ValidationContext, validate_text
from holodeck_lsp.validation.yaml.loader import MAX_ALIASES, MAX_TEXT, load_yaml
from tests.support.suites import alias_bomb, small_agent

AGENT = small_agent("limits")


def shown(text: str, incremental: bool = False) -> list[tuple[str, int, int, str]]:
    result = validate_text(text, Path("/nowhere/agent.yaml"),
                           ValidationContext(user_config_dir=None, incremental=incremental))
    return [(d.code, d.range.start.line, d.range.start.character, d.message)
            for d in result.diagnostics()]


def test_a_nine_level_alias_bomb_is_one_diagnostic_in_little_memory() -> None:
    text = alias_bomb(9)
    assert len(text) < 520
    tracemalloc.start()
    try:
        loaded = load_yaml(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 100_000_000
    limits = [p for p in loaded.problems if p.kind == "limit"]
    assert [(p.span.line, p.span.col, p.path) for p in limits] == [(4, 4, ("l4", 7))]
    assert limits[0].message == (
        "aliases expand to more than 100,000 values here: this alias and the later ones are "
        "not expanded (alias expansion limit)")
    assert loaded.data["l8"] == [None] * 10  # past the limit an alias loads as null


def test_aliases_under_the_limit_load_as_pyyaml_loads_them() -> None:
    text = alias_bomb(4) + "m: &m {a: 1, b: [x, y]}\nn: *m\nmerged: {<<: *m, c: 2}\n"
    loaded = load_yaml(text)
    assert loaded.problems == []
    assert loaded.data == yaml.safe_load(text)


def test_alias_uses_are_counted() -> None:
    text = "a: &a x\nb: [" + ", ".join(["*a"] * (MAX_ALIASES + 5)) + "]\n"
    loaded = load_yaml(text)
    assert [(p.kind, p.span.line, p.path) for p in loaded.problems] == [
        ("limit", 1, ("b", MAX_ALIASES))]
    assert loaded.data["b"][MAX_ALIASES - 1] == "x"
    assert loaded.data["b"][MAX_ALIASES:] == [None] * 5


def test_a_recursive_alias_is_still_reported_as_such() -> None:
    loaded = load_yaml("a: &a [1, *a]\n")
    assert [(p.kind, p.message) for p in loaded.problems] == [("construct", "recursive alias")]


def test_deep_nesting_keeps_the_other_diagnostics() -> None:
    text = AGENT + "    retrieval_context: " + "[" * 500 + "]" * 500 + "\n    bogus: 1\n"
    assert [(code, line, col) for code, line, col, _ in shown(text)] == [
        ("HL103", 8, 24), ("HL007", 8, 84), ("HL101", 9, 4)]


def test_nesting_past_what_the_parsers_accept_is_one_diagnostic() -> None:
    # libyaml stops at 1,000 levels; the pure-Python composer (a text with a tab) recurses
    # out of Python's stack at about 490, and its scanner's work grows with the levels
    # open at once (a second at 2,000): 1,000 is twice past it.
    for text, col in (("model: " + "[" * 5000 + "\n", 70), ("model: " + "{a: " * 3000 + "\n", 259),
                      ('model: "\t"\nmodel: ' + "[" * 1000 + "\n", 70)):
        assert shown(text) == [(
            "HL007", text.count("\n") - 1, col,
            "lists and mappings nested more than 64 levels deep: what is inside is not "
            "validated (nesting limit)")], text[:10]


def test_block_nesting_is_limited_too() -> None:
    text = "".join(" " * (2 * i) + f"k{i}:\n" for i in range(300)) + " " * 600 + "v: 1\n"
    assert [code for code, *_ in shown(text)].count("HL007") == 1


def test_a_document_over_the_size_limit_is_not_validated() -> None:
    text = AGENT + "# " + "x" * MAX_TEXT + "\n"
    assert shown(text) == [(
        "HL007", 0, 0,
        f"the file has {len(text):,} characters; files over {MAX_TEXT:,} are not validated "
        "(document size limit)")]
    assert shown(text, incremental=True) == shown(text)


def test_a_lone_surrogate_is_positioned_and_the_rest_still_validated() -> None:
    text = AGENT.replace("gpt-4o", "gpt-4o\ud800") + "    ground_truth: 3\n    bogus: 1\n"
    assert [(code, line, col) for code, line, col, _ in shown(text)] == [
        ("HL005", 3, 14), ("HL103", 8, 18), ("HL101", 9, 4)]
    assert shown(text)[0][3] == (
        "lone surrogate U+D800: not a character, so the file cannot be saved as UTF-8")


def test_control_characters_are_positioned_and_the_rest_still_validated() -> None:
    text = AGENT.replace("briefly", "brief\x00ly") + "\r\n    bogus: \x1b1\n"
    assert [(code, line, col, msg) for code, line, col, msg in shown(text)
            if code != "HL103"] == [
        ("HL001", 5, 22, "YAML does not allow the character U+0000 here"),
        ("HL101", 9, 4, "unknown key 'bogus' (test_cases[0].bogus)"),
        ("HL001", 9, 11, "YAML does not allow the character U+001B here"),
    ]


def test_many_refused_characters_are_summed_up() -> None:
    problems = load_yaml("a: '" + "\x01" * 30 + "'\n").problems
    assert len(problems) == 21
    assert problems[-1].message == (
        "10 more characters YAML does not allow follow; only the first are marked")


def test_the_incremental_loader_reports_the_same() -> None:
    cases = "".join(f"  - input: case {i}\n    ground_truth: x\n" for i in range(300))
    text = AGENT + cases + "  - input: bad\ud800\n"
    assert shown(text, incremental=True) == shown(text)
    assert [code for code, *_ in shown(text)] == ["HL005"]


def test_check_scans_a_folder_of_pathological_files(tmp_path: Path) -> None:
    from holodeck_lsp.check.checker import CheckOptions, check_paths

    (tmp_path / "bomb.yaml").write_text(alias_bomb(9), encoding="utf-8")
    (tmp_path / "deep.yaml").write_text("- " + "[" * 3000 + "\n", encoding="utf-8")
    (tmp_path / "agent.yaml").write_text(AGENT + alias_bomb(9), encoding="utf-8")
    result = check_paths([tmp_path], CheckOptions(ValidationContext(user_config_dir=None)))
    assert [Path(f.file).name for f in result.files] == ["agent.yaml"]
    assert "HL007" in [d.code for d in result.files[0].diagnostics]
