"""Server parts that need no client: positions, documents, settings, the run command's
recording."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from holodeck_lsp.server.open_documents import Documents
from holodeck_lsp.server.positions import PositionMap
from holodeck_lsp.server.run_command_line import lens_mode, recording_for
from holodeck_lsp.server.settings import DEFAULT_INCLUDE, Settings, parse_settings
from holodeck_lsp.validation.diagnostics import Severity

U8, U16, U32 = (
    types.PositionEncodingKind.Utf8,
    types.PositionEncodingKind.Utf16,
    types.PositionEncodingKind.Utf32,
)


def test_positions_convert_in_every_encoding() -> None:
    text = "a: 😀é\r\nb: x\rc: y\n"
    assert [PositionMap(text, enc).to_lsp(0, 5) for enc in (U8, U16, U32)] == [
        types.Position(0, 9),
        types.Position(0, 6),
        types.Position(0, 5),
    ]
    assert PositionMap(text, U16).to_core(types.Position(0, 6)) == (0, 5)
    assert PositionMap(text, U16).to_lsp(2, 3) == types.Position(2, 3)
    assert PositionMap(text, U16).to_lsp(9, 0) == types.Position(3, 0)


def test_yaml_only_line_breaks_map_through_offsets() -> None:
    text = "a: x\u2028y\nb: z\n"  # YAML breaks at U+2028, the protocol does not
    assert PositionMap(text, U16).to_lsp(2, 1) == types.Position(1, 1)
    assert PositionMap(text, U16).to_lsp(1, 0) == types.Position(0, 5)


def test_incremental_changes_apply_in_the_client_encoding() -> None:
    docs = Documents()
    docs.open(types.TextDocumentItem("file:///w/a.yaml", "yaml", 1, "k: 😀x\nz\n"))
    docs.change(
        "file:///w/a.yaml",
        2,
        [
            types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(0, 5), types.Position(0, 6)), text="y"
            )
        ],
    )
    docs.change(
        "file:///w/a.yaml",
        3,
        [
            types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(1, 0), types.Position(1, 99)), text="w"
            )
        ],
    )
    doc = docs.get("file:///w/a.yaml")
    assert doc is not None and (doc.text, doc.version) == ("k: 😀y\nw\n", 3)



def test_a_document_edited_many_times_keeps_the_right_text_and_positions() -> None:
    docs = Documents()
    doc = docs.open(types.TextDocumentItem("file:///a.yaml", "yaml", 1, "a: 1\nb: 2\n"))
    for version, (line, new) in enumerate([(0, "x\ny"), (2, "z"), (1, "")], start=2):
        change = types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(line, 0), types.Position(line, 1)), text=new
        )
        docs.change(doc.uri, version, [change])
        assert doc.positions(U16).starts == PositionMap(doc.text, U16).starts
    assert doc.text == "x\n: 1\nz: 2\n"


def test_the_line_table_is_the_same_without_the_newline_split(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = ["", "a", "a\n", "a\nb", "\n\n", "é\n😀\n", "x\r\ny\rz\n"]
    split = [PositionMap(text, U16).starts for text in texts]
    monkeypatch.setenv("HOLODECK_LSP_WITHOUT", "newline-starts")
    assert [PositionMap(text, U16).starts for text in texts] == split

def test_settings_parse_over_a_base_and_report_what_they_drop() -> None:
    settings, problems = parse_settings(
        {
            "holodeck": {
                "graders": {"import": "trusted"},
                "workspaceTrusted": True,
                "severity": {"hl401": "warning", "HL104": "off"},
            }
        }
    )
    assert settings == Settings(
        DEFAULT_INCLUDE, "trusted", True, {"HL401": Severity.WARNING, "HL104": None}
    )
    assert settings.import_graders and problems == []
    again, problems = parse_settings({"workspaceTrusted": "yes"}, settings)
    assert again.workspace_trusted is False and not again.import_graders
    assert problems == ["workspaceTrusted must be true or false, got 'yes'"]
    assert parse_settings([1], settings) == (settings, ["settings must be an object, got [1]"])


def test_a_lens_replays_the_suites_recording_when_there_is_one(tmp_path: Path) -> None:
    agent = tmp_path / "agent.yaml"
    default = recording_for(agent, None)
    assert default == recording_for(agent, "  ") == tmp_path / "replay.jsonl"
    assert lens_mode(None, default) == "live"  # nothing recorded: the model is called
    default.write_text("")
    assert lens_mode(None, default) == "replay"
    named = recording_for(agent, "runs/ci.jsonl")
    assert named == tmp_path / "runs" / "ci.jsonl"
    # A recording the setting names is replayed even before it exists (the run says so).
    assert lens_mode("runs/ci.jsonl", named) == "replay"
    assert recording_for(agent, "/elsewhere/r.jsonl") == Path("/elsewhere/r.jsonl")


def test_run_settings_name_a_recording_and_a_baseline() -> None:
    settings, problems = parse_settings({"run": {"replay": "r.jsonl", "baseline": "main.json"}})
    assert (settings.run_replay, settings.run_baseline, problems) == ("r.jsonl", "main.json", [])
    again, problems = parse_settings({"run": {"baseline": 3, "replay": ""}}, settings)
    assert (again.run_replay, again.run_baseline) == (None, None)
    assert problems == ["run.baseline must be a file path, got 3"]


def test_the_validation_time_limit_is_seconds_within_bounds() -> None:
    assert Settings().time_limit == 10.0
    settings, problems = parse_settings({"validation": {"timeLimit": 2.5}})
    assert (settings.time_limit, problems) == (2.5, [])
    for wrong in (0, 0.05, 301, True, "10", float("nan")):
        again, problems = parse_settings({"validation": {"timeLimit": wrong}}, settings)
        assert again.time_limit == 10.0  # a workspace cannot turn the limit off
        assert problems == [f"validation.timeLimit must be a number of seconds from 0.1 to "
                            f"300, got {wrong!r}"]
    assert parse_settings({"validation": 5})[1] == ["validation must be an object, got 5"]
