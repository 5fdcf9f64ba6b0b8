"""Quick fixes as exact text edits: applied, then validated again."""

from __future__ import annotations

from pathlib import Path

from holodeck_lsp.editing.fixes import fixes_for, refactors_at
from holodeck_lsp.editing.text_edits import TextEdit, apply, minimal_edit
from holodeck_lsp.validation.diagnostics import Diagnostic, Range
from holodeck_lsp.validation.validate import ValidationContext, validate_text

HEAD = "name: a\nmodel:\n  provider: openai\n  name: x\ninstructions:\n  inline: y\n"


def diagnostics(text: str) -> list[Diagnostic]:
    return validate_text(
        text, Path("/nowhere/agent.yaml"), ValidationContext(user_config_dir=None)
    ).diagnostics()


def fix_all(text: str, code: str) -> tuple[list[str], str]:
    """Apply the first fix of every diagnostic with ``code`` until none is left."""
    titles: list[str] = []
    while True:
        found = [d for d in diagnostics(text) if d.code == code]
        fixes = [f for d in found for f in fixes_for(text, d)]
        if not fixes:
            return titles, text
        titles.append(fixes[0].title)
        text = apply(text, [fixes[0].edit])


def test_a_field_written_first_on_the_dash_line_moves_into_the_first_turn() -> None:
    text = HEAD + (
        "test_cases:\n  - input: hi  # first\n    turns:\n      - ground_truth: x\n"
        "  - input: next\n"
    )
    titles, fixed = fix_all(text, "HL201")
    assert titles == ["Move 'input' into turns[0]"]
    assert fixed == HEAD + (
        "test_cases:\n  - turns:\n      - ground_truth: x\n"
        "        input: hi  # first\n  - input: next\n"
    )
    assert diagnostics(fixed) == []


def test_fields_of_a_case_in_an_indentless_sequence_move_with_their_blocks() -> None:
    text = HEAD + (
        "test_cases:\n- name: c\n  turns:\n  - input: q\n  expected_tools:\n"
        "  - name: t\n    count: 2\n  files: []\n"
    )
    titles, fixed = fix_all(text, "HL201")
    assert titles == ["Move 'expected_tools' into turns[0]", "Move 'files' into turns[0]"]
    assert fixed == HEAD + (
        "test_cases:\n- name: c\n  turns:\n  - input: q\n"
        "    expected_tools:\n    - name: t\n      count: 2\n"
        "    files: []\n"
    )
    assert [d.code for d in diagnostics(fixed)] == ["HL307"]  # the agent has no tool `t`


def test_windows_line_endings_are_kept() -> None:
    text = (HEAD + "test_cases:\n  - input: hi\n    turns:\n      - ground_truth: x\n").replace(
        "\n", "\r\n"
    )
    _, fixed = fix_all(text, "HL201")
    assert fixed == (
        HEAD + "test_cases:\n  - turns:\n      - ground_truth: x\r\n        input: hi\n"
    ).replace("\n", "\r\n").replace("\r\r\n", "\r\n")
    assert diagnostics(fixed) == []


def test_flow_style_cases_get_no_move() -> None:
    text = HEAD + "test_cases:\n  - {input: hi, turns: [{input: a}]}\n"
    assert [f for d in diagnostics(text) for f in fixes_for(text, d)] == []


def test_did_you_mean_keeps_the_quotes_of_the_value() -> None:
    text = HEAD + "test_cases:\n  - input: hi\n    evaluations:\n      - metric: 'equalty'\n"
    titles, fixed = fix_all(text, "HL104")
    assert titles == ["Change ''equalty'' to ''equality''"]
    assert fixed.endswith("- metric: 'equality'\n")


def test_a_stale_diagnostic_offers_nothing() -> None:
    text = HEAD + "test_cases:\n  - input: 25\n"
    (quote,) = [d for d in diagnostics(text) if d.code == "HL103"]
    assert [f.title for f in fixes_for(text, quote)] == ['Quote as "25"']
    assert fixes_for(text.replace("25", "26"), quote) == []


def test_converting_a_case_with_only_single_turn_fields() -> None:
    text = HEAD + (
        "test_cases:\n  - input: hi\n    ground_truth: yo\n  - name: other\n    input: b\n"
    )
    (fix,) = refactors_at(text, 7, 6)
    converted = apply(text, [fix.edit])
    assert converted == HEAD + (
        "test_cases:\n  - turns:\n      - input: hi\n"
        "        ground_truth: yo\n  - name: other\n    input: b\n"
    )
    assert diagnostics(converted) == []
    assert refactors_at(converted, 7, 6) == []  # already multi-turn


def test_minimal_edit_never_splits_a_crlf_pair() -> None:
    edit = minimal_edit("a\r\nb", "a\r\r\nb")
    assert apply("a\r\nb", [edit]) == "a\r\r\nb"
    assert edit == TextEdit(Range.of(0, 1, 1, 0), "\r\r\n")


def test_a_misspelled_vector_store_name_is_replaced_by_the_one_config_yaml_defines(
    tmp_path: Path,
) -> None:
    (tmp_path / "config.yaml").write_text(
        "vectorstores:\n  docs:\n    provider: postgres\n"
        "    connection_string: postgresql://u:p@localhost/docs\n"
    )
    text = HEAD + (
        "tools:\n  - name: kb\n    type: vectorstore\n    description: d\n"
        "    source: data/\n    database: doc\ntest_cases:\n  - input: hi\n"
    )
    ctx = ValidationContext(user_config_dir=None)
    (found,) = validate_text(text, tmp_path / "agent.yaml", ctx).diagnostics()
    assert found.code == "HL606"
    (fix,) = fixes_for(text, found)
    fixed = apply(text, [fix.edit])
    assert fixed == text.replace("database: doc\n", "database: docs\n")
    assert validate_text(fixed, tmp_path / "agent.yaml", ctx).diagnostics() == []


def test_a_converted_value_is_written_as_holodeck_reads_it() -> None:
    text = HEAD + (
        "execution:\n  parallel_test_cases: '4'\n  verbose: 1\n"
        "evaluations:\n  metrics:\n    - type: standard\n      metric: numeric\n"
        "      absolute_tolerance: \"1e-3\"\n      threshold: .nan\n"
        "test_cases:\n  - input: q\n    files:\n      - {path: a.pdf, type: pdf, pages: ['2']}\n"
    )
    titles, fixed = fix_all(text, "HL111")
    assert titles == [
        "Change ''4'' to '4'",
        "Change '1' to 'true'",
        "Change '\"1e-3\"' to '0.001'",
        "Change ''2'' to '2'",
    ]
    assert fixed == HEAD + (
        "execution:\n  parallel_test_cases: 4\n  verbose: true\n"
        "evaluations:\n  metrics:\n    - type: standard\n      metric: numeric\n"
        "      absolute_tolerance: 0.001\n      threshold: .nan\n"
        "test_cases:\n  - input: q\n    files:\n      - {path: a.pdf, type: pdf, pages: [2]}\n"
    )
