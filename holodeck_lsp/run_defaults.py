"""The defaults of `run` that its help shows and the runner applies, in one table: no
imports, so the command line reads them without loading the runner."""

DEFAULT_LLM_TIMEOUT = 60.0  # seconds per turn when no option, file or variable sets one
DEFAULT_GRADER_TIMEOUT = 30.0  # seconds a code grader may take per call

# `compare` (and `run --baseline`): its output formats, what fails it, and the significance
# level of the noise test: a pass rate that changed with p < 0.05 (Fisher's exact test)
# is beyond noise, the usual convention.
COMPARE_FORMATS = ("text", "markdown", "json")
FAIL_ON = ("regressed", "any-change", "never")
DEFAULT_ALPHA = 0.05
# Over the turns of a suite: Benjamini-Hochberg (the false discovery rate; as strict as Holm
# when nothing changed, and it flags more of the turns that did) or Holm (family-wise).
CORRECTIONS = ("bh", "holm")  # the first is the default

# `run --format`: what every `--output` is written as, whatever its extension (HoloDeck's
# `holodeck test run --format` has the first two).
REPORT_FORMATS = ("json", "markdown", "junit", "html")

# Where the differences between `run` and `holodeck test` are listed, for the lines that
# name them (`run`'s warnings, `compare` across runners).
DIFFERENCES_DOC = "docs/runner.md#differences-from-holodeck-test"

# `history`: its output formats (the first is the default).
HISTORY_FORMAT_NAMES = ("text", "json", "markdown", "html")
