"""Finding code graders: statically by default, by a guarded import when opted in."""
