// What the tests of the bundled .vsix share: where it is, and a machine without holodeck-lsp
// (PATH without any folder that has it, PYTHONPATH empty).

import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

import { EXTENSION_DIR } from './server';

export const BUNDLED_TARGET = 'linux-x64';
export const BUNDLED_VSIX = join(EXTENSION_DIR, `holodeck-lsp-${BUNDLED_TARGET}.vsix`);

function hasServer(dir: string): boolean {
  try {
    accessSync(join(dir, 'holodeck-lsp'), constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** PATH without the folders that hold a holodeck-lsp (the repository's .venv/bin, a pipx bin, ...). */
export function pathWithoutServer(path = process.env.PATH ?? ''): string {
  return path.split(delimiter).filter((dir) => dir !== '' && !hasServer(dir)).join(delimiter);
}

/** The environment of a user who never installed holodeck-lsp. */
export function environmentWithoutServer(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: pathWithoutServer(), PYTHONPATH: '' };
  delete env.VIRTUAL_ENV;
  delete env.HOLODECK_PYTHON;
  return env;
}

/** Why plain `python3` on that PATH could already import holodeck_lsp (the test would prove nothing), or undefined. */
export function python3ImportsServer(env: NodeJS.ProcessEnv): string | undefined {
  const result = spawnSync('python3', ['-c', 'import holodeck_lsp, sys; print(holodeck_lsp.__file__)'], { env, encoding: 'utf8' });
  if (result.error) {
    return `python3 did not run: ${result.error.message}`;
  }
  return result.status === 0 ? `python3 imports holodeck_lsp from ${result.stdout.trim()}` : undefined;
}
