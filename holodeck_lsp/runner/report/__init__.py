"""Report: what a run leaves (the `TestReport`, its formats, the event stream,
progress, the console lines, shard merging)."""
