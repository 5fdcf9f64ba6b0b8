"""The README's first two code blocks are the two commands a newcomer runs: install and
check the example, install and test (`.ci/fresh-clone-tests` runs the second as written)."""

from __future__ import annotations

import re

from tests.conftest import REPO

INSTALL_AND_RUN = (
    "python3 -m venv .venv && .venv/bin/pip install -e . && "
    ".venv/bin/holodeck-lsp check examples/quickstart/agent.yaml"
)
INSTALL_AND_TEST = (
    "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest"
)


def test_the_first_two_code_blocks_are_the_two_commands() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"(?ms)^```[^\n]*\n(.*?)^```", text)
    assert [b.strip() for b in blocks[:2]] == [INSTALL_AND_RUN, INSTALL_AND_TEST]
    # What the intro says the tool is comes before them, in one paragraph.
    intro = text.split("```", 1)[0].strip().split("\n\n")
    assert intro[0] == "# holodeck-lsp" and len(intro) == 2
