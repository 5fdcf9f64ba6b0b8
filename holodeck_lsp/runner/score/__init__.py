"""Score: what a finished turn is worth (argument matchers and their regex child, tool
assertions, metrics) and the roll-up from turns to test cases, attempts and the summary."""
