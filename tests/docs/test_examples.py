"""The command examples in README.md and docs/ print what they say they print.

How a block is marked as an example, and what is normalised: tests/docs/examples.py.
`check` examples run in the fast suite; `run` examples (a runner start-up each) in the
slow one.
"""

from __future__ import annotations

import pytest

from tests.docs.examples import (
    Example,
    default_program,
    doc_files,
    examples,
    run,
    unmarked_command_blocks,
)


def _params() -> list[object]:
    params: list[object] = []
    for file in doc_files():
        for example in examples(file):
            slow = any(c.argv[1:2] != ["check"] for c in example.commands)
            marks = [pytest.mark.slow] if slow else []
            params.append(pytest.param(example, id=example.name, marks=marks))
    return params


@pytest.mark.parametrize("example", _params())
def test_documented_output_matches(example: Example) -> None:
    assert run(example, default_program()) == []


def test_every_command_block_is_an_example_or_says_why_not() -> None:
    assert [b for f in doc_files() for b in unmarked_command_blocks(f)] == []


def test_the_docs_have_check_and_run_examples() -> None:
    """The markers are not lost in an edit: README's check and runner.md's replay run."""
    commands = [c.argv[:2] for f in doc_files() for e in examples(f) for c in e.commands]
    assert ["holodeck-lsp", "check"] in commands
    assert ["holodeck-lsp", "run"] in commands
