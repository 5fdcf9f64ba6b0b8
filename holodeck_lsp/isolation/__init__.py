"""Keeping a workspace's Python off the import path: the interpreters we start (`children`)
and the imports of user code we make ourselves (`stdlib_guard`). Standard library only."""
