"""The exit codes of every command, in one table: `check`, `run`, `merge` and `compare` agree."""

EXIT_OK = 0  # check: no error (warnings allowed); run, merge: every test case passed;
# compare: nothing `--fail-on` fails on
EXIT_FAILED = 1  # check: at least one error; run, merge: at least one test case failed;
# compare: a regression beyond noise (`--fail-on regressed`) or any change (`any-change`)
EXIT_USAGE = 2  # a bad option or an unreadable path or report; run: a configuration error
EXIT_EXECUTION = 3  # run: the run itself failed (a model service, a report not written);
# merge, compare: an output file not written
# run: stopped by a signal, 128 + its number as shells report it (130 Ctrl-C, 143 SIGTERM)
EXIT_SIGNAL = 128
EXIT_INTERRUPTED = EXIT_SIGNAL + 2  # Ctrl-C (SIGINT), also before a run starts
