"""Runs the holodeck-lsp bundled with the extension on the Python that runs this file.

The extension starts `<python> -I run_server.py serve`: `-I` keeps PYTHONPATH and the user's
site-packages out, and the bundled libraries go first on sys.path, so whatever the
interpreter's environment has installed (another holodeck-lsp, another pydantic) cannot
shadow them. Child processes the server starts (runs, grader imports) get them through
PYTHONPATH. Written for every Python 3: an older one gets a message, not a SyntaxError
(hence type comments, not annotations).
"""

import json
import os
import sys
import sysconfig

LIBS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libs")
# Exit status the extension reads as "this Python cannot run the bundled server".
UNSUPPORTED = 3
NOT_SUPPORTED = (
    "holodeck-lsp: the server bundled with this extension runs on CPython %s; this is %s %s "
    "(%s). Select another interpreter, or set holodeck.server.importStrategy to "
    "fromEnvironment.\n"
)


def interpreter_tag():
    # type: () -> str
    """'cp311' for CPython 3.11, 'cp313t' for its free-threaded build."""
    free_threaded = "t" if sysconfig.get_config_var("Py_GIL_DISABLED") else ""
    return "cp%d%d%s" % (sys.version_info[0], sys.version_info[1], free_threaded)  # noqa: UP031 (any Python 3 reads this)


def bundled_paths():
    # type: () -> list[str]
    """The folders to put first on sys.path, or exit with a reason."""
    with open(os.path.join(LIBS, "manifest.json"), encoding="utf-8") as file:
        manifest = json.load(file)
    tag = interpreter_tag()
    if sys.implementation.name != "cpython" or tag not in manifest["tags"]:
        details = (", ".join(manifest["pythons"]), sys.implementation.name,
                   sys.version.split()[0], sys.executable)  # fmt: skip
        sys.stderr.write(NOT_SUPPORTED % details)
        sys.exit(UNSUPPORTED)
    return [os.path.join(LIBS, tag), os.path.join(LIBS, "common")]


def main():
    # type: () -> None
    paths = bundled_paths()
    sys.path[0:0] = paths
    inherited = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(paths + ([inherited] if inherited else []))
    from holodeck_lsp.__main__ import main as cli

    sys.argv[0] = "holodeck-lsp"
    cli()


if __name__ == "__main__":
    main()
