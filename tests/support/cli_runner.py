"""The command line in-process, as typer's test runner runs it, with its click command built
once per app for the whole test process.

typer's `CliRunner.invoke` builds the click command from the app on every call (about 20 ms
of CPU); the fast suite invokes the command line some 700 times. A click command holds no
state of an invocation (each gets a fresh context), so one serves them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import click
import typer.main
from click.testing import CliRunner as ClickCliRunner
from click.testing import Result


@cache
def _command(app: typer.Typer) -> click.Command:
    return typer.main.get_command(app)


class CliRunner(ClickCliRunner):
    """`typer.testing.CliRunner`, with the app's click command built once."""

    def invoke(  # type: ignore[override]
        self,
        app: typer.Typer,
        args: str | Sequence[str] | None = None,
        **extra: Any,  # click's: input, env, catch_exceptions, ...
    ) -> Result:
        return super().invoke(_command(app), args, **extra)
