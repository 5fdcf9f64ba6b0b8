"""The exit codes of every command, in one table: `check`, `run` and `merge` agree."""

EXIT_OK = 0  # check: no error (warnings allowed); run, merge: every test case passed
EXIT_FAILED = 1  # check: at least one error; run, merge: at least one test case failed
EXIT_USAGE = 2  # a bad option or an unreadable path; run: a configuration error
EXIT_EXECUTION = 3  # run: the run itself failed (a model service, a report not written)
# run: stopped by a signal, 128 + its number as shells report it (130 Ctrl-C, 143 SIGTERM)
EXIT_SIGNAL = 128
EXIT_INTERRUPTED = EXIT_SIGNAL + 2  # Ctrl-C (SIGINT), also before a run starts
