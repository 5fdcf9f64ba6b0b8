"""What the VS Code Testing view asks the server: the suite's test cases and turns with
their ranges (`holodeck/testItems`, the same items as the code lenses) and where a run
event's field path stands (`holodeck/fieldLocations`), for an open or a closed file, the
cases inline or in a `test_cases_file`."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from lsprotocol import types

from holodeck_lsp.server.jobs import MAX_TEXT
from tests.conftest import REPO
from tests.server.lsp_client import Client, edit, open_doc, uri
from tests.server.shared_servers import SHARES_SERVERS, LendPush

pytestmark = SHARES_SERVERS


def example(parent: Path) -> Path:
    folder = parent / "convfinqa"
    shutil.copytree(REPO / "examples" / "convfinqa", folder)
    return folder / "agent.yaml"


def span(found: Any) -> tuple[int, int, int, int]:
    return (
        found["start"]["line"],
        found["start"]["character"],
        found["end"]["line"],
        found["end"]["character"],
    )


def plain(value: Any) -> Any:
    """The answer as the JSON it was (the test client makes objects into named tuples)."""
    if hasattr(value, "_asdict"):
        return {k: plain(v) for k, v in value._asdict().items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


async def request(client: Client, method: str, params: dict[str, Any]) -> Any:
    return plain(await client.protocol.send_request_async(method, params))


async def test_items_list_the_cases_and_turns_where_the_lenses_are(
    tmp_path: Path, lend_push: LendPush
) -> None:
    agent = example(tmp_path)
    lines = agent.read_text().splitlines()
    # Trusted: runs (the lenses) are offered in trusted workspaces only.
    async with lend_push(agent.parent, {"workspaceTrusted": True}) as client:
        doc = open_doc(client, agent)
        found = await request(client, "holodeck/testItems", {"textDocument": {"uri": doc}})
        first = lines.index("test_cases:")
        starts = [i for i, line in enumerate(lines) if i > first and line.startswith("  - name: ")]
        turns = [i for i, line in enumerate(lines) if line.startswith("      - input: ")]
        ends = [starts[1] - 2, starts[2] - 2, len(lines) - 1]  # the blank line is not in it
        ranges = [(start, 2, end, len(lines[end])) for start, end in zip(starts, ends, strict=True)]
        assert [
            (c["index"], c["label"], c["detail"], span(c["range"])) for c in found["cases"]
        ] == [
            (0, "operating cash flow change", "4 turns", ranges[0]),
            (1, "capex share of revenue", "3 turns", ranges[1]),
            (2, "net income growth", "3 turns", ranges[2]),
        ]
        assert [
            [(t["index"], t["label"], span(t["range"])[0]) for t in c["turns"]]
            for c in found["cases"]
        ] == [
            [(0, "turns[0]", turns[0]), (1, "turns[1]", turns[1]), (2, "turns[2]", turns[2]),
             (3, "turns[3]", turns[3])],
            [(0, "turns[0]", turns[4]), (1, "turns[1]", turns[5]), (2, "turns[2]", turns[6])],
            [(0, "turns[0]", turns[7]), (1, "turns[1]", turns[8]), (2, "turns[2]", turns[9])],
        ]  # fmt: skip
        assert found["cases"][0]["turns"][1]["detail"] == "And in 2020?"
        assert found["uri"] == doc
        await client.diagnostics_of(doc)  # the lenses wait for it to be known as an agent
        lenses = await client.text_document_code_lens_async(
            types.CodeLensParams(types.TextDocumentIdentifier(doc))
        )
        assert sorted(lens.range.start.line for lens in lenses or []) == sorted(
            [span(c["range"])[0] for c in found["cases"]]
            + [span(t["range"])[0] for c in found["cases"] for t in c["turns"]]
        )

        # An edit moves them: a line inserted above the first case.
        edit(client, doc, 2, (starts[0], 0), (starts[0], 0), "  # the first case\n")
        moved = await request(client, "holodeck/testItems", {"textDocument": {"uri": doc}})
        assert [span(c["range"])[0] for c in moved["cases"]] == [s + 1 for s in starts]
        # Text that does not parse: null, the client keeps what it shows.
        edit(client, doc, 3, (0, 0), (0, 0), "name: [\n")
        assert await request(client, "holodeck/testItems", {"textDocument": {"uri": doc}}) is None


async def test_items_of_a_closed_file_are_read_from_disk(push: Client, workspace: Path) -> None:
    agent = example(workspace)
    plain = agent.parent / "notes.yaml"
    plain.write_text("just: a mapping\n")
    found = await request(push, "holodeck/testItems", {"textDocument": {"uri": uri(agent)}})
    assert [c["label"] for c in found["cases"]] == [
        "operating cash flow change",
        "capex share of revenue",
        "net income growth",
    ]
    other = await request(push, "holodeck/testItems", {"textDocument": {"uri": uri(plain)}})
    recording = str(plain.parent / "replay.jsonl")
    assert other == {"uri": uri(plain), "recording": recording, "cases": []}
    gone = {"textDocument": {"uri": uri(workspace / "gone.yaml")}}
    assert await request(push, "holodeck/testItems", gone) is None
    # Past the editor's size limit, on disk or open, it is not parsed.
    huge = agent.parent / "huge.agent.yaml"
    huge.write_text(agent.read_text() + "#" * (MAX_TEXT + 1) + "\n")
    big = {"textDocument": {"uri": uri(huge)}}
    assert await request(push, "holodeck/testItems", big) is None
    open_doc(push, huge)
    assert await request(push, "holodeck/testItems", big) is None
    located = {**big, "paths": ["test_cases[0]"]}
    assert await request(push, "holodeck/fieldLocations", located) == [None]


async def test_the_testing_view_runs_what_the_lenses_run_with_one_recording(
    tmp_path: Path, lend_push: LendPush
) -> None:
    """`holodeck/runArguments` builds the command line the lenses run; the suite's
    recording is `replay.jsonl` beside it unless a setting names another."""
    agent = example(tmp_path)
    folder = agent.parent
    async with lend_push(folder, {"workspaceTrusted": True}) as client:
        doc = {"uri": uri(agent)}
        items = await request(client, "holodeck/testItems", {"textDocument": doc})
        assert items["recording"] == str(folder / "replay.jsonl")
        turn = {"textDocument": doc, "case": 0, "upToTurn": 1}
        replay = await request(client, "holodeck/runArguments", {**turn, "mode": "replay"})
        events = ["--events", "-", "-q", "--no-history"]
        assert replay == {
            "args": ["run", str(agent), *events, "--case", "0", "--up-to-turn", "1",
                     "--replay", str(folder / "replay.jsonl")],
            "cwd": str(folder),
            "recording": str(folder / "replay.jsonl"),
        }  # fmt: skip
        # The client's setting for the suite names another recording, relative to it.
        mine = {"textDocument": doc, "mode": "record", "recording": "runs/r.jsonl"}
        recorded = await request(client, "holodeck/runArguments", mine)
        record = ["--record", str(folder / "runs" / "r.jsonl")]
        assert recorded["args"] == ["run", str(agent), *events, *record]
        live = await request(client, "holodeck/runArguments", {"textDocument": doc, "mode": "live"})
        assert live["args"] == ["run", str(agent), *events]
        # Against an earlier run's report (the client's `holodeck.run.baseline`).
        ci = {"textDocument": doc, "mode": "live", "baseline": "ci/main.json"}
        compared = await request(client, "holodeck/runArguments", ci)
        baseline = ["--baseline", str(folder / "ci" / "main.json")]
        assert compared["args"] == ["run", str(agent), *events, *baseline]
        # A turn without its case, or an unknown mode, has no command line.
        for wrong in ({"textDocument": doc, "mode": "live", "upToTurn": 1},
                      {"textDocument": doc, "mode": "dry-run"},
                      {"textDocument": doc, "mode": "live", "case": -1}):  # fmt: skip
            assert await request(client, "holodeck/runArguments", wrong) is None


async def test_field_locations_place_a_failure_at_its_line(push: Client, workspace: Path) -> None:
    agent = example(workspace)
    lines = agent.read_text().splitlines()
    doc = open_doc(push, agent)
    found = await request(
        push,
        "holodeck/fieldLocations",
        {
            "textDocument": {"uri": doc},
            "paths": [
                "test_cases[0].turns[1].ground_truth",
                "test_cases[0].turns[1].expected_tools[0].args.year",
                "evaluations.metrics[2]",
                "test_cases[7]",
                "not a path",
            ],
        },
    )
    truth = lines.index('        ground_truth: "181001"')
    arg = next(i for i, line in enumerate(lines) if 'year: {regex: "2020"}' in line)
    year = lines[arg].index("year")
    metric = lines.index("    - type: geval")
    assert [None if f is None else (f["uri"], span(f["range"])) for f in found] == [
        (doc, (truth, 8, truth, len(lines[truth]))),
        (doc, (arg, year, arg, lines[arg].index("}", year) + 1)),
        (doc, (metric, 6, metric, len(lines[metric]))),  # a mapping item: its first line
        None,
        None,
    ]


AGENT = """name: a
model: {provider: openai, name: gpt-4o}
instructions: {inline: Answer.}
evaluations:
  metrics:
    - {type: standard, metric: equality}
test_cases_file: tests/cases.yaml
"""
CASES = """- name: first
  input: What is 1 + 1?
  ground_truth: "2"
- name: second
  turns:
    - input: Hello
    - input: And again?
      ground_truth: "again"
"""


async def test_cases_in_a_test_cases_file_are_listed_and_placed_there(
    push: Client, workspace: Path
) -> None:
    agent = workspace / "suite" / "agent.yaml"
    cases = workspace / "suite" / "tests" / "cases.yaml"
    cases.parent.mkdir(parents=True)
    agent.write_text(AGENT)
    cases.write_text(CASES)
    doc = open_doc(push, agent)
    asked = {"textDocument": {"uri": doc}}
    found = await request(push, "holodeck/testItems", asked)
    assert found["uri"] == uri(cases)
    assert [
        (c["index"], c["label"], span(c["range"])[0], [span(t["range"])[0] for t in c["turns"]])
        for c in found["cases"]
    ] == [(0, "first", 0, []), (1, "second", 3, [5, 6])]
    paths = ["test_cases[1].turns[1].ground_truth", "evaluations.metrics[0]", "test_cases[0]"]
    located = await request(push, "holodeck/fieldLocations", {**asked, "paths": paths})
    assert [(f["uri"], span(f["range"])[0]) for f in located] == [
        (uri(cases), 7),
        (doc, 5),
        (uri(cases), 0),
    ]
    # The file open with unsaved edits: a mapping with `test_cases:`, one case moved down.
    edited = "# moved\ntest_cases:\n" + "".join(f"  {line}\n" for line in CASES.splitlines())
    open_doc(push, cases, edited)
    found = await request(push, "holodeck/testItems", asked)
    assert [(c["label"], span(c["range"])[0]) for c in found["cases"]] == [
        ("first", 2),
        ("second", 5),
    ]
    located = await request(push, "holodeck/fieldLocations", {**asked, "paths": paths[:1]})
    assert [(f["uri"], span(f["range"])[0]) for f in located] == [(uri(cases), 9)]
