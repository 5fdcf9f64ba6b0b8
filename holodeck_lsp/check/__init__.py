"""`check`: find the files, validate each with the core, hand results to a reporter."""
