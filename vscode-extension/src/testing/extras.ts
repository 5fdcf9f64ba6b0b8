// A suite the bundled server cannot run: the bundle carries none of holodeck-lsp's optional
// extras (MCP, vector stores, PDF, NLP metrics), and a suite that needs one stops before its
// first case with the runner's install hint (holodeck_lsp/install_hints.py), which names the
// extra. The Testing view then runs the suite with the environment's own holodeck-lsp, or
// says what to install where. Pure: no vscode, no process.

// `pip install -e '.[mcp]'`: the part of the hint that names the extra.
const HINT = /pip install -e '\.\[([A-Za-z0-9_-]+)\]'/g;

/** The extras a failed run's stderr says are missing, each once, in the order named. */
export function missingExtras(stderr: string): string[] {
  return [...new Set([...stderr.matchAll(HINT)].map((match) => match[1]))];
}

/** What to install where, when no holodeck-lsp of the environment can run the suite. */
export function bundleLacksExtras(extras: readonly string[], python: string): string {
  const named = extras.map((extra) => `\`${extra}\``).join(', ');
  const spec = `[${extras.join(',')}]`;
  const plural = extras.length > 1 ? 's' : '';
  return (
    `This suite needs holodeck-lsp's ${named} extra${plural}, which the server bundled with the extension ` +
    'does not include, and no holodeck-lsp of your environment was found to run it with (the Python ' +
    "extension's interpreter, the workspace's .venv or venv, PATH). Install holodeck-lsp with it into " +
    `the Python that runs the bundled server, ${python}: \`"${python}" -m pip install -e '<holodeck-lsp clone>${spec}'\` ` +
    `(once it is on PyPI: \`"${python}" -m pip install 'holodeck-lsp${spec}'\`), or into the environment you select ` +
    'in the Python extension; the Testing view then runs such suites with that holodeck-lsp.'
  );
}
