"""How a test case of one run is found in another (`compare`, `run --baseline`, the
history): by its name (the n-th case of that name, should two share it), an unnamed one by
its place in the suite. A renamed case is not the same case."""

from __future__ import annotations

CaseKey = tuple[str, str | int, int]


def case_keys(names: list[str | None], indexes: list[int]) -> list[CaseKey]:
    """How each case of a suite (in suite order) is found on the other side."""
    seen: dict[str, int] = {}
    keys: list[CaseKey] = []
    for name, index in zip(names, indexes, strict=True):
        if name is None:
            keys.append(("index", index, 0))
        else:
            keys.append(("name", name, seen.get(name, 0)))
            seen[name] = seen.get(name, 0) + 1
    return keys


def case_label(name: str | None, index: int) -> str:
    """How a test case is named in output: its name, else its place in the suite."""
    return name if name is not None else f"test_cases[{index}]"
