"""Pydantic's plugins off in `check` and `serve`, in our own processes only.

Pydantic reads every installed distribution's entry points for plugins when it first
builds a validator. `check` and `serve` use none: `disable_plugins()` sets
`PYDANTIC_DISABLE_PLUGINS` for them (the validation worker inherits it), and a child
running code not ours (a grader's import, the `run` an editor starts) gets the
environment without it. `run` keeps its agents', tools' and graders' plugins (logfire's,
say); a value the user set is theirs.

A hack (CONTRIBUTING, "Performance hacks"). Benchmark row: `check`, 20-line file, cold.
Off (`HOLODECK_LSP_WITHOUT=pydantic-plugins`): pydantic looks for plugins as usual.
"""

from __future__ import annotations

import os

from holodeck_lsp.hack_switches import hack_on

VARIABLE = "PYDANTIC_DISABLE_PLUGINS"
_set_here = False  # by disable_plugins, in this process


def disable_plugins() -> None:
    """No plugin lookup in this process (and the children that are ours)."""
    global _set_here
    if hack_on("pydantic-plugins") and VARIABLE not in os.environ:
        os.environ[VARIABLE] = "__all__"
        _set_here = True


def child_environment() -> dict[str, str]:
    """This process's environment for a child that runs code not ours: without the
    variable `disable_plugins` set."""
    env = dict(os.environ)
    if _set_here:
        env.pop(VARIABLE, None)
    return env
