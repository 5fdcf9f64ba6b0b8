"""`check`: find the files, validate each, hand the results to an output format."""
