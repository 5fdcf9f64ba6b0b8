"""A file a YAML file names, read for validation: its refusals and the outside-project
warning become diagnostics on the YAML value that names it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from holodeck_lsp.named_files import NotReadable, Problem, regular_file
from holodeck_lsp.validation.collector import Collector, Part
from holodeck_lsp.validation.context import ValidationContext
from holodeck_lsp.validation.project import is_outside
from holodeck_lsp.validation.yaml.source_map import YamlPath

# A refusal with a code of its own; the others (missing, a folder, not UTF-8) take the
# code of the reference (HL601 for a test-case file, HL604 for a config).
REFUSAL_CODES: dict[Problem, str] = {"special": "HL608", "binary": "HL609", "too-large": "HL007"}


@dataclass
class Project:
    """The project of the validated file, and the files it pulled in from outside it."""

    root: Path
    outside: set[str] = field(default_factory=set)

    def note_outside(
        self,
        target: Path,
        named: str,
        where: YamlPath,
        collector: Collector,
        part: Part = "value",
        consequence: str = "",
    ) -> None:
        """HL607 on ``where`` when ``target`` (links resolved) lies outside the project."""
        if is_outside(target, self.root):
            message = f"{named} is outside the project ({self.root})"
            collector.emit(where, "HL607", f"{message}{consequence}", part=part)
            self.outside.add(str(target))


def read_named(
    target: Path,
    named: str,
    where: YamlPath,
    collector: Collector,
    ctx: ValidationContext,
    project: Project | None,
    code: str,
    part: Part = "value",
) -> str | None:
    """The text of the file ``named`` (e.g. "test_cases_file 'x.yaml'"), or None with
    the reason emitted at ``where`` (``code`` when the refusal has no code of its own).
    A file outside ``project`` is noted (HL607); None: the file may be anywhere."""
    try:
        text: str | None = ctx.read(target)
        refused = None
    except NotReadable as exc:
        text, refused = None, exc
    if project is not None and (refused is None or refused.problem != "special"):
        shown = ": it is validated, but none of its lines is shown"
        project.note_outside(target, named, where, collector, part, shown)
    if refused is not None:
        collector.emit(
            where,
            REFUSAL_CODES.get(refused.problem, code),
            f"{named} {refused.reason} (looked for {target})",
            part=part,
        )
    return text


def special_file(target: Path) -> NotReadable | None:
    """Why ``target`` must not be read, when it is a FIFO, a device or a kernel file
    (only looked at); None for anything else, missing files included."""
    try:
        regular_file(target)
    except NotReadable as exc:
        return exc if exc.problem == "special" else None
    return None
