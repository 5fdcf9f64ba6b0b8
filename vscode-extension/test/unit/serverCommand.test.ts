import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { findProgramOnPath, resolveServerCommand, serverExecutable } from '../../src/serverCommand';
import { discoveryContext as context } from '../support/discovery';

const SERVE = ['serve'];

describe('server command discovery', () => {
  it('uses the setting first: its first element is the program, the rest come before the args', () => {
    const ctx = context(['/usr/bin/holodeck-lsp', '/usr/bin/uv'], { pythonEnvironment: { executable: '/envs/a/bin/python' } });
    assert.deepEqual(resolveServerCommand(['uv', 'run', 'holodeck-lsp'], SERVE, ctx), {
      command: '/usr/bin/uv',
      args: ['run', 'holodeck-lsp', 'serve'],
      origin: 'setting',
    });
    // A path is the user's own, as written.
    for (const program of ['/opt/hl/holodeck-lsp', 'tools/holodeck-lsp']) {
      assert.equal(resolveServerCommand([program], SERVE, ctx)?.command, program);
    }
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

  it('never looks in a relative or empty PATH entry, which the server would read in the workspace folder', () => {
    // What the extension host's folder holds under these names; the workspace may hold the same.
    const relative = ['bin/holodeck-lsp', 'holodeck-lsp', './holodeck-lsp', 'node_modules/.bin/holodeck-lsp', 'bin/uv', 'uv'];
    const pathVariable = 'bin::.:./:node_modules/.bin:/usr/bin';
    assert.equal(resolveServerCommand([], SERVE, context(relative, { pathVariable })), undefined);
    assert.equal(resolveServerCommand(['uv'], SERVE, context(relative, { pathVariable })), undefined);
    const ctx = context([...relative, '/usr/bin/holodeck-lsp', '/usr/bin/uv'], { pathVariable });
    assert.equal(resolveServerCommand([], SERVE, ctx)?.command, '/usr/bin/holodeck-lsp');
    assert.equal(resolveServerCommand(['uv'], SERVE, ctx)?.command, '/usr/bin/uv');
    assert.equal(findProgramOnPath(ctx, ['python3']), undefined);
  });

  it('on Windows, looks only in a drive\'s or a share\'s absolute folders of PATH', () => {
    const found = [
      'bin\\holodeck-lsp.exe', // bin
      '.\\holodeck-lsp.exe', // .
      'holodeck-lsp.exe', // an empty entry
      'C:holodeck-lsp.exe', // C:, the current folder of drive C:
      '\\tools\\holodeck-lsp.exe', // \tools, on the current drive
      '\\\\server\\share\\holodeck-lsp.exe',
      'D:\\Python\\Scripts\\holodeck-lsp.exe',
      'D:\\Python\\Scripts\\uv.exe',
    ];
    const ctx = context(found, {
      platform: 'win32',
      pathVariable: 'bin;.;;C:;\\tools;\\\\server\\share;D:\\Python\\Scripts',
      workspaceFolders: ['C:\\work'],
    });
    assert.equal(resolveServerCommand([], SERVE, ctx)?.command, '\\\\server\\share\\holodeck-lsp.exe');
    assert.equal(resolveServerCommand(['uv'], SERVE, ctx)?.command, 'D:\\Python\\Scripts\\uv.exe');
    const local = context(found.slice(0, 5), { platform: 'win32', pathVariable: 'bin;.;;C:;\\tools' });
    assert.equal(resolveServerCommand([], SERVE, local), undefined);
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
