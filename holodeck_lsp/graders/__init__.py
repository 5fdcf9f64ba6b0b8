"""Finding user code without running it: code graders statically by default (and by a
guarded import when opted in), and the parameters of function tools."""
