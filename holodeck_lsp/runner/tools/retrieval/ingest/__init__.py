"""From a tool's `source:` to text chunks: files found, converted to text, split."""
