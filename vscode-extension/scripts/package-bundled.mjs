// Platform-specific packages with the server bundled: for each VS Code target named on the
// command line (default linux-x64), bundled/libs is rebuilt for it (scripts/bundle_server.py)
// and `vsce package --target` writes holodeck-lsp-<target>.vsix. Run `npm run build` first.
//
// The Python that runs pip: $HOLODECK_PYTHON, else the repository's .venv, else python3.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const extensionDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const TARGETS = ['linux-x64', 'linux-arm64', 'alpine-x64', 'alpine-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64'];

const requested = process.argv.slice(2);
const targets = requested.length === 0 ? ['linux-x64'] : requested[0] === 'all' ? TARGETS : requested;
const unknown = targets.filter((target) => !TARGETS.includes(target));
if (unknown.length > 0) {
  console.error(`unknown target(s) ${unknown.join(', ')}; known: ${TARGETS.join(', ')}`);
  process.exit(2);
}

const repoVenvPython = join(extensionDir, '..', '.venv', 'bin', 'python');
const python = process.env.HOLODECK_PYTHON || (existsSync(repoVenvPython) ? repoVenvPython : 'python3');

function run(command, args) {
  console.log(`+ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: extensionDir, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) {
    process.exit(result.status ?? 1);
  }
}

for (const target of targets) {
  run(python, [join('scripts', 'bundle_server.py'), '--target', target]);
  run(join('node_modules', '.bin', 'vsce'), [
    'package', '--no-dependencies', '--allow-missing-repository',
    '--target', target, '--ignoreFile', '.vscodeignore.bundled', '--out', `holodeck-lsp-${target}.vsix`,
  ]);
}
