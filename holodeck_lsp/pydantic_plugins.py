"""Pydantic's plugins off in `check` and `serve`, in our own processes only.

The first time pydantic builds a model's validator, it reads the entry points of every
installed distribution, looking for plugins (some 30 ms of a pre-commit hook's start-up).
`check` and `serve` use none, so `disable_plugins()` sets `PYDANTIC_DISABLE_PLUGINS`
(pydantic reads it at each build) in their process, which the server's validation worker
inherits. A process started for code that is not ours gets the environment without it
(`child_environment()`): a grader imported to check it (`check --import-graders`), and the
`holodeck-lsp run` an editor starts. `run` never sets it: its in-process agents, tools
and graders keep their pydantic plugins (logfire's, for one). A value the user set is
left as it is, and passed on.

Hack rule (CONTRIBUTING, "Performance hacks"). Benchmark row: `check`, 20-line file,
cold. Off (`HOLODECK_LSP_WITHOUT=pydantic-plugins`): pydantic looks for plugins as usual.
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
