"""How to install an optional extra, said once for every message that needs it.

Until holodeck-lsp is on PyPI, the command that works is the editable install from a clone;
the published name is given beside it (`tests/docs/test_install_hints.py` keeps every hint
in the repository that way).
"""

from __future__ import annotations


def install_extra(extra: str) -> str:
    """The command that installs ``extra`` (`mcp`, `chroma`, ...), as a user can run it."""
    return (
        f"pip install -e '.[{extra}]' in a clone of holodeck-lsp "
        f"(once it is on PyPI: pip install 'holodeck-lsp[{extra}]')"
    )
