"""YAML text -> data with positions: the full and incremental loaders, the source map."""
