import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { resolveServerCommand, serverExecutable } from '../../src/serverCommand';
import { discoveryContext as context } from '../support/discovery';

const SERVE = ['serve'];

describe('server command discovery', () => {
  it('uses the setting first: its first element is the program, the rest come before the args', () => {
    const ctx = context(['/usr/bin/holodeck-lsp'], { pythonEnvironment: { executable: '/envs/a/bin/python' } });
    assert.deepEqual(resolveServerCommand(['uv', 'run', 'holodeck-lsp'], SERVE, ctx), {
      command: 'uv',
      args: ['run', 'holodeck-lsp', 'serve'],
      origin: 'setting',
    });
  });

  it('then holodeck-lsp beside the selected Python environment interpreter', () => {
    const ctx = context(['/envs/a/bin/holodeck-lsp', '/usr/bin/holodeck-lsp'], {
      pythonEnvironment: { executable: '/envs/a/bin/python' },
    });
    assert.deepEqual(resolveServerCommand([], SERVE, ctx), {
      command: '/envs/a/bin/holodeck-lsp',
      args: ['serve'],
      origin: 'python-environment',
    });
  });

  it('then holodeck-lsp on PATH, in PATH order', () => {
    const ctx = context(['/usr/bin/holodeck-lsp', '/usr/local/bin/holodeck-lsp'], {
      pythonEnvironment: { executable: '/envs/a/bin/python' },
    });
    assert.deepEqual(resolveServerCommand([], SERVE, ctx), {
      command: '/usr/local/bin/holodeck-lsp',
      args: ['serve'],
      origin: 'path',
    });
  });

  it('finds nothing when holodeck-lsp is nowhere (the caller then explains it)', () => {
    assert.equal(resolveServerCommand([], SERVE, context([], { pathVariable: undefined })), undefined);
  });

  it('does not run a restricted workspace\'s own environment, but still finds PATH', () => {
    const ctx = context(['/home/ada/suite/.venv/bin/holodeck-lsp', '/usr/bin/holodeck-lsp'], {
      pythonEnvironment: { executable: '/home/ada/suite/.venv/bin/python' },
      workspaceTrusted: false,
    });
    assert.deepEqual(resolveServerCommand([], SERVE, ctx), {
      command: '/usr/bin/holodeck-lsp',
      args: ['serve'],
      origin: 'path',
    });
    assert.deepEqual(resolveServerCommand([], SERVE, { ...ctx, workspaceTrusted: true }), {
      command: '/home/ada/suite/.venv/bin/holodeck-lsp',
      args: ['serve'],
      origin: 'python-environment',
    });
  });

  it('looks in Scripts\\ and for .exe on Windows', () => {
    const ctx = context(['C:\\envs\\a\\Scripts\\holodeck-lsp.exe'], {
      platform: 'win32',
      pathVariable: 'C:\\Windows',
      workspaceFolders: ['C:\\work'],
      pythonEnvironment: { executable: 'C:\\envs\\a\\python.exe' },
    });
    assert.deepEqual(resolveServerCommand([], SERVE, ctx), {
      command: 'C:\\envs\\a\\Scripts\\holodeck-lsp.exe',
      args: ['serve'],
      origin: 'python-environment',
    });
  });
});

describe('server options', () => {
  it('launch the command over stdio without a transport flag, in the workspace folder', () => {
    const command = { command: '/envs/a/bin/holodeck-lsp', args: ['serve'], origin: 'path' as const };
    // A `transport` key would make the language client append `--stdio`.
    assert.deepEqual(serverExecutable(command, '/home/ada/suite'), {
      command: '/envs/a/bin/holodeck-lsp',
      args: ['serve'],
      options: { cwd: '/home/ada/suite' },
    });
    assert.deepEqual(serverExecutable(command, undefined).options, {});
  });
});
