"""Execution settings of a test run (`execution:`)."""

from pydantic import Field

from holodeck_lsp.models._base import StrictModel


class ExecutionConfig(StrictModel):
    """Timeouts, caching, output and concurrency of a test run."""

    file_timeout: int | None = Field(None, description="Time limit for processing a file, seconds.")
    llm_timeout: int | None = Field(
        None, description="Time limit for one agent turn (one model exchange), seconds."
    )
    download_timeout: int | None = Field(
        None, description="Time limit for downloading a remote file, seconds."
    )
    cache_enabled: bool | None = Field(None, description="Cache processed files between runs.")
    cache_dir: str | None = Field(None, description="Folder of the file cache.")
    verbose: bool | None = Field(None, description="Print detailed progress.")
    quiet: bool | None = Field(None, description="Print only the summary.")
    parallel_test_cases: int | None = Field(
        None,
        ge=1,
        description=(
            "How many test cases run at once (turns of one case never do). Command line "
            "beats this, which beats HOLODECK_PARALLEL_TEST_CASES; default 1."
        ),
    )
