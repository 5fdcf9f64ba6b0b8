"""The prompt version a kept run records, ours against HoloDeck 0.7.1's own
`resolve_prompt_version`, on prompt files written to trip a frontmatter parser: the
version, the recognised keys, `extra`, the body hash, or HoloDeck's refusal (then ours
refuses too, and the run is not kept by either)."""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path
from typing import Any

import pytest

from holodeck_lsp.models.instructions import Instructions
from holodeck_lsp.runner.report.run_keeping.prompt_versions import (
    PromptVersionError,
    prompt_version,
)

pytestmark = pytest.mark.slow

PROMPTS = {
    "plain": "Answer with the figure asked for.\n",
    "blank-lines-first": "\n\n  \n---\nversion: v3\n---\nBody\n",
    "crlf": "---\r\nversion: v1\r\nauthor: Ada\r\n---\r\n\r\nLine one\r\nLine two\r\n",
    "lone-cr": "---\rversion: v1\r---\rBody\rmore\r",
    "unclosed": "---\nversion: v1\nBody without a closing fence\n",
    "long-fences": "-----\nversion: v2\n------   \nBody\n",
    "not-a-mapping": "---\n- a\n- b\n---\nBody\n",
    "empty": "---\n---\nBody\n",
    "float-version": "---\nversion: 1.10\n---\nBody\n",
    "zero-version": "---\nversion: 0\n---\nBody\n",
    "date-version": "---\nversion: 2024-05-01\n---\nBody\n",
    "string-tags": "---\ntags: finance\n---\nBody\n",
    "int-tags": "---\ntags: [1, 2]\n---\nBody\n",
    "int-author": "---\nauthor: 7\n---\nBody\n",
    "extras": "---\nversion: v1\nreviewed: 2024-05-01\nat: 2024-05-01 10:00:00\n"
    "owners: {team: fin, size: 3}\nflags: !!set {a: null}\n---\nBody\n",
    "int-key": "---\n1: one\n---\nBody\n",
    "json": '{\n"version": "j1",\n"tags": ["x"]\n}\nJSON body\n',
    "json-malformed": "{\nversion: j1\n}\nBody\n",
    "yaml-malformed": "---\nversion: [v1\n---\nBody\n",
    "rules-in-body": "---\nversion: v1\n---\nPart one\n---\nPart two\n-----\nEnd\n",
    "unicode-space": "\u2003\u00a0---\nversion: v1\n---\n Body \u2028\n",
    "toml": "+++\nversion = 'v1'\n+++\nBody\n",
    "three-documents": "---\na: 1\n---\nb: 2\n---\nc\n",
    "no-body": "---\nversion: v9\n---\n",
}

_HOLODECK = """
import json, sys
from pathlib import Path
from holodeck.lib.prompt_version import resolve_prompt_version
from holodeck.models.agent import Instructions
out = {}
for name in json.loads(sys.argv[2]):
    try:
        version = resolve_prompt_version(Instructions(file=name), base_dir=Path(sys.argv[1]))
        out[name] = json.loads(json.dumps(version.model_dump(mode="python"), default=str))
    except Exception as exc:
        out[name] = None
print(json.dumps(out))
"""


def _theirs(holodeck_cli: Path, folder: Path, names: list[str]) -> dict[str, Any]:
    python = holodeck_cli.with_name("python")
    done = subprocess.run(
        [str(python), "-c", textwrap.dedent(_HOLODECK), str(folder), json.dumps(names)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return json.loads(done.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def _ours(folder: Path, name: str) -> dict[str, Any] | None:
    try:
        version = prompt_version(Instructions(file=name), folder / "agent.yaml")
    except PromptVersionError:
        return None
    return version.model_dump(mode="json")


def test_prompt_versions_are_holodeck_s(holodeck_cli: Path, tmp_path: Path) -> None:
    folder = tmp_path.resolve()
    for name, text in PROMPTS.items():
        (folder / f"{name}.md").write_bytes(text.encode("utf-8"))
    names = [f"{name}.md" for name in PROMPTS]
    theirs = _theirs(holodeck_cli, folder, names)
    ours = {name: _ours(folder, name) for name in names}
    assert ours == theirs
    # The cases above reach both outcomes: versions told, and refusals.
    assert None in theirs.values()
    assert sum(v is not None for v in theirs.values()) > len(PROMPTS) // 2


def test_an_inline_prompt_is_hashed_whole_as_holodeck_hashes_it(
    holodeck_cli: Path, tmp_path: Path
) -> None:
    text = "---\nversion: v1\n---\n Answer. \n"
    script = (
        "import json, sys\nfrom holodeck.lib.prompt_version import resolve_prompt_version\n"
        "from holodeck.models.agent import Instructions\n"
        "print(resolve_prompt_version(Instructions(inline=sys.argv[1])).model_dump_json())"
    )
    python = holodeck_cli.with_name("python")
    done = subprocess.run(
        [str(python), "-c", script, text], capture_output=True, text=True, timeout=300, check=True
    )
    theirs = json.loads(done.stdout.splitlines()[-1])
    ours = prompt_version(Instructions(inline=text), tmp_path / "agent.yaml")
    assert ours.model_dump(mode="json") == theirs
