"""Text that reaches a reader safely: control characters shown, not obeyed (terminals,
XML); untrusted text shown as code in Markdown; cuts that never leave part of a mask.

Beside `models` at the bottom of the package: `check`, `server` and `runner` all print
text that came from a YAML file, a model or a service. Standard library only.
"""
