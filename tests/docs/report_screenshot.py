"""The HTML report's screenshots in docs/images/, taken in headless Chromium from the sample
run of `tests/support/sample_reports.py` (the bundled example replayed with `--repeat 3`:
one test case fails in every attempt, one is flaky):

- `html-report.png`: the top of the page, as a reader first sees it;
- `html-report-failure.png`: the first failure, reached with the `j` key.

    python -m tests.docs.report_screenshot

Run it again after changing how the report looks, and commit the images.
"""

from __future__ import annotations

import contextlib
import sys
import tempfile
from pathlib import Path

from tests.chromium import Chromium, find_chromium
from tests.support.sample_reports import repeated_example_report

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"


def main() -> int:
    binary = find_chromium()
    if binary is None:
        print("chromium is not installed (apt-get install chromium, or set CHROMIUM)")
        return 1
    with tempfile.TemporaryDirectory() as scratch, contextlib.chdir(scratch):
        (html,) = repeated_example_report(Path("."), "report.html")  # paths shown relative
        with Chromium(binary) as browser:
            browser.open(html.resolve())
            browser.screenshot(IMAGES / "html-report.png")
            browser.press("j")
            browser.screenshot(IMAGES / "html-report-failure.png")
            if browser.problems:
                print("\n".join(browser.problems))
                return 1
    for name in ("html-report.png", "html-report-failure.png"):
        print(IMAGES / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
