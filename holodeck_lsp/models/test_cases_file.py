"""The root of a standalone test-case file (`test_cases_file:`), as the checker sees it."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, field_validator

from holodeck_lsp.models.agent import MAX_TEST_CASES
from holodeck_lsp.models.errors import TOO_MANY, fail
from holodeck_lsp.models.test_case import TestCaseModel


class TestCasesFile(BaseModel):
    """Validation root of a standalone test-case file, so paths read `test_cases[i]`."""

    __test__ = False
    model_config = ConfigDict(defer_build=True)
    test_cases: list[TestCaseModel]

    @field_validator("test_cases")
    @classmethod
    def _at_most_1000_cases(cls, value: list[TestCaseModel]) -> list[TestCaseModel]:
        # Every agent loading the file gets these cases, and an agent holds at most 1000.
        if len(value) > MAX_TEST_CASES:
            raise fail(TOO_MANY, "at most {limit} test cases per agent", limit=MAX_TEST_CASES)
        return value


def test_cases_file_path(ref: str, agent_file: Path) -> Path:
    """The file an agent's `test_cases_file: REF` names: REF itself when absolute, else
    relative to the agent file's folder."""
    named = Path(ref)
    return named if named.is_absolute() else agent_file.parent / named
