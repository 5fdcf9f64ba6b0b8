"""The fixes of what HoloDeck 0.7 changed since 0.6 (HL701-HL704, HL104 on a subagent's
model): each fix's title, whether `check --fix` applies it, the whole text after it, and
what is left."""

from __future__ import annotations

from pathlib import Path

from holodeck_lsp.editing.fixes import fixes_for
from holodeck_lsp.editing.text_edits import apply
from holodeck_lsp.validation.diagnostics import Diagnostic
from holodeck_lsp.validation.validate import ValidationContext, validate_text
from tests.editing.test_field_fixes import codes, offered

ANTHROPIC = (
    "name: a\nmodel:\n  provider: anthropic\n  name: claude-sonnet-4-5\n"
    "instructions:\n  inline: y\n"
)
OPENAI = "name: a\nmodel:\n  provider: openai\n  name: gpt-4o\ninstructions:\n  inline: y\n"


def test_tool_filtering_is_deleted_with_its_block_and_comments_elsewhere_stay() -> None:
    text = (
        ANTHROPIC
        + "tool_filtering:  # 0.6\n  enabled: true\n  top_k: 5\n"
        + "test_cases:  # kept\n  - input: hi\n"
    )
    assert codes(text) == ["HL701"]
    after = ANTHROPIC + "test_cases:  # kept\n  - input: hi\n"
    assert offered(text, "HL701") == [
        ("Delete this field (HoloDeck 0.7 removed it)", True, after)
    ]
    assert codes(after) == []


def test_the_semantic_kernel_metrics_flag_goes_and_an_emptied_metrics_block_with_it() -> None:
    sibling = (
        ANTHROPIC
        + "observability:\n  enabled: true\n  metrics:\n"
        + "    enabled: true\n    include_semantic_kernel_metrics: false\n"
    )
    assert offered(sibling, "HL701") == [
        (
            "Delete this field (HoloDeck 0.7 removed it)",
            True,
            ANTHROPIC + "observability:\n  enabled: true\n  metrics:\n    enabled: true\n",
        )
    ]
    alone = (
        ANTHROPIC
        + "observability:\n  enabled: true\n  metrics:\n"
        + "    include_semantic_kernel_metrics: false\n"
    )
    ((_, _, after),) = offered(alone, "HL701")
    assert after == ANTHROPIC + "observability:\n  enabled: true\n"  # never `metrics: null`
    assert codes(after) == []


def test_one_of_becomes_any_of_where_it_is_a_keyword_only() -> None:
    text = (
        OPENAI
        + "response_format:\n  type: object\n  properties:\n"
        + "    oneOf: {type: string}\n"  # a property named oneOf
        + "    priority:\n      oneOf: [{type: integer}, {enum: [low, high]}]\n"
    )
    assert codes(text) == ["HL702"]
    assert offered(text, "HL702") == [
        (
            "Rename 'oneOf' to 'anyOf'",
            True,
            text.replace("      oneOf: [", "      anyOf: ["),
        )
    ]
    # The Claude backend takes `oneOf`: nothing to say on an anthropic agent.
    assert codes(text.replace(OPENAI, ANTHROPIC)) == []


def test_a_subagent_model_id_becomes_its_alias() -> None:
    text = (
        ANTHROPIC
        + "claude:\n  agents:\n    triage:\n      description: d\n      prompt: p\n"
        + "      model: claude-3-5-haiku-latest\n"
    )
    (diagnostic,) = [d for d in _diagnostics(text) if d.code == "HL104"]
    assert "did you mean 'haiku'?" in diagnostic.message
    assert "silently drops" in diagnostic.message
    assert offered(text, "HL104") == [
        (
            "Change 'claude-3-5-haiku-latest' to 'haiku'",
            True,
            text.replace("claude-3-5-haiku-latest", "haiku"),
        )
    ]


def test_subagents_of_an_openai_agent_are_said_unused_and_get_no_fix() -> None:
    text = OPENAI + "claude:\n  agents:\n    triage:\n      description: d\n      prompt: p\n"
    assert codes(text) == ["HL704"]
    assert offered(text, "HL704") == []


def _diagnostics(text: str, folder: Path = Path("/nowhere")) -> list[Diagnostic]:
    return validate_text(
        text, folder / "agent.yaml", ValidationContext(user_config_dir=None)
    ).diagnostics()


def _setting_fixes(text: str, folder: Path) -> list[tuple[str, bool, str]]:
    (hint,) = [d for d in _diagnostics(text, folder) if d.code == "HL703"]
    return [(f.title, f.preferred, apply(text, [f.edit])) for f in fixes_for(text, hint)]


def test_beside_a_claude_md_setting_sources_is_offered_never_applied_by_check(
    tmp_path: Path,
) -> None:
    assert [d.code for d in _diagnostics(ANTHROPIC, tmp_path)] == []
    (tmp_path / "CLAUDE.md").write_text("Always cite sources.\n")
    title = "Load the project's CLAUDE.md: setting_sources: [project]"
    assert _setting_fixes(ANTHROPIC, tmp_path) == [
        (title, False, ANTHROPIC + "claude:\n  setting_sources: [project]\n")
    ]
    block = ANTHROPIC + "claude:\n  max_turns: 4  # enough\ntest_cases:\n  - input: hi\n"
    fixed = block.replace("# enough\n", "# enough\n  setting_sources: [project]\n")
    assert _setting_fixes(block, tmp_path) == [(title, False, fixed)]
    assert [d.code for d in _diagnostics(fixed, tmp_path)] == []
    # Set, even to nothing, it is the user's choice; an openai agent has no Claude CLI.
    assert _diagnostics(block.replace("max_turns: 4", "setting_sources: []"), tmp_path) == []
    assert _diagnostics(OPENAI, tmp_path) == []
