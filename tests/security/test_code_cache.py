"""The server's cache of generated code (SECURITY.md): what one process compiled, the next
one takes from the file, which only its user can read; a file or folder someone else could
have written, or garbage, is ignored."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from holodeck_lsp.server.code_cache import CodeCache

SOURCE = "def add(a, b):\n    return a + b\n"


def _define(cache: CodeCache) -> Any:
    names: dict[str, Any] = {}
    exec(cache.compile(SOURCE, "<generated add>", "exec"), names)
    return names["add"]


def test_a_second_process_takes_the_code_from_the_cache(tmp_path: Path) -> None:
    path = tmp_path / "cache" / "generated-code"
    first = CodeCache(path)
    assert _define(first)(2, 3) == 5
    assert first.compiled == 1
    first.save()
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert oct(path.parent.stat().st_mode & 0o777) == "0o700"
    second = CodeCache(path)
    assert _define(second)(2, 3) == 5
    assert second.compiled == 0
    second.save()  # nothing new: the file is left as it is
    assert CodeCache(path).stored.keys() == first.used.keys()


def test_a_cache_others_may_write_or_garbage_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "cache" / "generated-code"
    first = CodeCache(path)
    _define(first)
    first.save()
    os.chmod(path, 0o666)
    assert CodeCache(path).stored == {}
    os.chmod(path, 0o600)
    os.chmod(path.parent, 0o777)
    assert CodeCache(path).stored == {}
    os.chmod(path.parent, 0o700)
    path.write_bytes(b"not marshal data")
    cache = CodeCache(path)
    assert cache.stored == {}
    assert _define(cache)(1, 1) == 2
