"""Every install hint gives a command that works today beside the published name.

holodeck-lsp is not on PyPI yet: a hint that says only `pip install holodeck-lsp` (or an
extra of it) sends a user to a package no index serves. Each such hint, in the docs, the
extension and the runtime messages, must stand in a paragraph that also gives the
editable install from a clone (`pip install -e`), a built wheel (`.whl`) or the repository
at a tag (`git+URL@vX.Y.Z`).
"""

from __future__ import annotations

import re
from pathlib import Path

from holodeck_lsp.install_hints import install_extra
from tests.conftest import REPO

# `pip install holodeck-lsp`, `pip install 'holodeck-lsp[mcp]'`, across a line break too.
_PUBLISHED = re.compile(r"""pip\s+install\s+(?:-U\s+|--upgrade\s+)?["'`]?holodeck-lsp\b""")
_TODAY = re.compile(r"pip\s+install\s+-e\b|\.whl\b|\bgit\+")


def _files() -> list[Path]:
    extension = REPO / "vscode-extension"
    return [
        REPO / "README.md",
        REPO / "CONTRIBUTING.md",
        REPO / ".pre-commit-hooks.yaml",
        *sorted(p for p in (REPO / "docs").rglob("*") if p.suffix in (".md", ".yml", ".json")),
        extension / "README.md",
        *sorted((extension / "src").rglob("*.ts")),
        *sorted((REPO / "holodeck_lsp").rglob("*.py")),
    ]


def published_only(text: str) -> list[str]:
    """The hints of ``text`` that name only the unpublished package, by their paragraph."""
    out = []
    for paragraph in re.split(r"\n\s*\n", text):
        if _PUBLISHED.search(paragraph) and not _TODAY.search(paragraph):
            out.append(" ".join(paragraph.split()))
    return out


def test_no_hint_names_only_the_unpublished_package() -> None:
    found = {}
    for path in _files():
        if path.is_file():
            hints = published_only(path.read_text(encoding="utf-8"))
            if hints:
                found[str(path.relative_to(REPO))] = hints
    assert found == {}


def test_a_hint_with_only_the_published_name_is_found() -> None:
    assert published_only("Install it:\n`pip install\n'holodeck-lsp[mcp]'`.\n\nNext.") == [
        "Install it: `pip install 'holodeck-lsp[mcp]'`."
    ]
    assert published_only("`pip install -e '.[mcp]'` (or `pip install holodeck-lsp`)") == []
    assert published_only("pip install ./dist/holodeck_lsp-0.1.0-py3-none-any.whl") == []


def test_the_runtime_hint_gives_both_commands() -> None:
    assert install_extra("chroma") == (
        "pip install -e '.[chroma]' in a clone of holodeck-lsp "
        "(once it is on PyPI: pip install 'holodeck-lsp[chroma]')"
    )


def test_the_extension_reads_the_hint_as_the_runner_writes_it() -> None:
    """The Testing view finds the extra a bundled run lacks in this hint
    (vscode-extension/src/testing/extras.ts); its unit test reads this sample."""
    from holodeck_lsp.runner.tools.mcp_servers import EXTRA_HINT

    sample = REPO / "vscode-extension" / "test" / "fixtures" / "run" / "missing-extra.stderr"
    assert sample.read_text(encoding="utf-8") == (
        f"/ws/suite/agent.yaml:12: error: tool 'memory' did not start: {EXTRA_HINT}\n"
    )
