// Which server runs under holodeck.server.importStrategy, and which Python runs the bundled one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { chooseServer, interpreterCandidates, type BundledContext, type Bundle, type InterpreterOrigin, type PythonInfo } from '../../src/bundled';
import { NOT_FOUND_MESSAGE, settingNotFoundMessage, type ServerCommand } from '../../src/serverCommand';
import { DEFAULT_SETTINGS, type Settings } from '../../src/settings';
import { discoveryContext } from '../support/discovery';

const BUNDLE: Bundle = {
  script: '/ext/bundled/run_server.py',
  pythons: ['3.10', '3.11', '3.12', '3.13', '3.14'],
  tags: ['cp310', 'cp311', 'cp312', 'cp313', 'cp314'],
};

function python(executable: string, version: [number, number], more: Partial<PythonInfo> = {}): PythonInfo {
  return { executable, version, implementation: 'cpython', freeThreaded: false, ...more };
}

/**
 * A machine with these executable files, where running `argv` as a Python answers `pythons[argv
 * joined by spaces]` (a program not listed does not run).
 */
function machine(
  executables: string[],
  pythons: Record<string, PythonInfo>,
  overrides: Partial<BundledContext> = {},
): BundledContext & { probed: string[] } {
  const probed: string[] = [];
  return {
    ...discoveryContext(executables),
    bundle: BUNDLE,
    probe: async (argv) => {
      probed.push(argv.join(' '));
      return pythons[argv.join(' ')];
    },
    probed,
    ...overrides,
  };
}

const DEFAULTS: Settings = { ...DEFAULT_SETTINGS };
const FROM_ENVIRONMENT: Settings = { ...DEFAULT_SETTINGS, importStrategy: 'fromEnvironment' };

function bundled(executable: string, interpreter: InterpreterOrigin): { command: ServerCommand } {
  return { command: { command: executable, args: ['-I', '/ext/bundled/run_server.py', 'serve'], origin: 'bundled', interpreter } };
}

describe('the bundled server (importStrategy useBundled, the default)', () => {
  it('runs on the Python extension\'s interpreter first, isolated (-I), with the server args', async () => {
    const ctx = machine(['/envs/a/bin/python', '/home/ada/suite/.venv/bin/python', '/usr/bin/python3'], {
      '/envs/a/bin/python': python('/envs/a/bin/python', [3, 12]),
    }, { pythonEnvironment: { executable: '/envs/a/bin/python' } });
    assert.deepEqual(await chooseServer(DEFAULTS, ctx), bundled('/envs/a/bin/python', 'python-extension'));
  });

  it('then on the workspace\'s .venv, then venv, without the Python extension', async () => {
    const ctx = machine(['/home/ada/suite/.venv/bin/python', '/home/ada/suite/venv/bin/python', '/usr/bin/python3'], {
      '/home/ada/suite/.venv/bin/python': python('/home/ada/suite/.venv/bin/python', [3, 11]),
      '/home/ada/suite/venv/bin/python': python('/home/ada/suite/venv/bin/python', [3, 11]),
    });
    assert.deepEqual(await chooseServer(DEFAULTS, ctx), bundled('/home/ada/suite/.venv/bin/python', 'workspace-environment'));
    assert.deepEqual(ctx.probed, ['/home/ada/suite/.venv/bin/python']);
  });

  it('then python3, then python on PATH, in PATH order', async () => {
    const ctx = machine(['/usr/local/bin/python3', '/usr/bin/python3', '/usr/bin/python'], {
      '/usr/local/bin/python3': python('/usr/local/bin/python3', [3, 13]),
    });
    assert.deepEqual(await chooseServer(DEFAULTS, ctx), bundled('/usr/local/bin/python3', 'path'));
  });

  it('never runs a restricted workspace\'s own environment, selected or not', async () => {
    const ctx = machine(['/home/ada/suite/.venv/bin/python', '/usr/bin/python3'], {
      '/home/ada/suite/.venv/bin/python': python('/home/ada/suite/.venv/bin/python', [3, 12]),
      '/usr/bin/python3': python('/usr/bin/python3', [3, 11]),
    }, { workspaceTrusted: false, pythonEnvironment: { executable: '/home/ada/suite/.venv/bin/python' } });
    assert.deepEqual(await chooseServer(DEFAULTS, ctx), bundled('/usr/bin/python3', 'path'));
    assert.deepEqual(ctx.probed, ['/usr/bin/python3']);
  });

  it('passes over a Python that is too old, too new or not CPython, for the next one', async () => {
    const ctx = machine(['/home/ada/suite/.venv/bin/python', '/usr/bin/python3', '/usr/bin/python'], {
      '/home/ada/suite/.venv/bin/python': python('/home/ada/suite/.venv/bin/python', [3, 10], { implementation: 'pypy' }),
      '/usr/bin/python3': python('/usr/bin/python3', [3, 9]),
      '/usr/bin/python': python('/usr/bin/python', [3, 12]),
    });
    assert.deepEqual(await chooseServer(DEFAULTS, ctx), bundled('/usr/bin/python', 'path'));
  });

  it('says which Pythons it found and why none fits, when holodeck-lsp is not installed either', async () => {
    const ctx = machine(['/opt/py/bin/python', '/usr/bin/python3', '/usr/bin/python'], {
      '/opt/py/bin/python': python('/opt/py/bin/python', [3, 15]),
      '/usr/bin/python3': python('/usr/bin/python3', [3, 9]),
      '/usr/bin/python': python('/usr/bin/python', [3, 13], { freeThreaded: true }),
    }, { pythonEnvironment: { executable: '/opt/py/bin/python' } });
    assert.deepEqual(await chooseServer(DEFAULTS, ctx), {
      command: undefined,
      message:
        'HoloDeck: the language server bundled with the extension needs Python 3.10 to 3.14, and none was found: ' +
        'Python 3.15 at /opt/py/bin/python is not one the extension bundles the server for; ' +
        'Python 3.9 at /usr/bin/python3 is too old; ' +
        'Python 3.13 (free-threaded) at /usr/bin/python is not one the extension bundles the server for. ' +
        'Install Python 3.10 or later (or select it in the Python extension), or install holodeck-lsp in your ' +
        'environment and set `holodeck.server.importStrategy` to `fromEnvironment`.',
    });
  });

  it('says where it looked when there is no Python at all, and a Python that does not run', async () => {
    const none = await chooseServer(DEFAULTS, machine([], {}));
    assert.equal(none.command, undefined);
    assert.match(
      none.message ?? '',
      /needs Python 3\.10 to 3\.14, and none was found \(tried the Python extension's interpreter, the workspace's \.venv and venv, python3 and python on PATH\)\./,
    );
    const broken = await chooseServer(DEFAULTS, machine(['/usr/bin/python3'], {}));
    assert.match(broken.message ?? '', /none was found: \/usr\/bin\/python3 did not run\./);
  });

  it('falls back to the environment\'s holodeck-lsp when no Python can run the bundle, saying why', async () => {
    const ctx = machine(['/usr/bin/python3', '/usr/bin/holodeck-lsp'], {
      '/usr/bin/python3': python('/usr/bin/python3', [3, 8]),
    });
    const choice = await chooseServer(DEFAULTS, ctx);
    assert.deepEqual(choice.command, { command: '/usr/bin/holodeck-lsp', args: ['serve'], origin: 'path' });
    assert.match(choice.message ?? '', /Python 3\.8 at \/usr\/bin\/python3 is too old/);
  });

  it('is the environment\'s holodeck-lsp in the universal .vsix, which has no bundle', async () => {
    const ctx = machine(['/usr/bin/python3', '/usr/bin/holodeck-lsp'], {
      '/usr/bin/python3': python('/usr/bin/python3', [3, 12]),
    }, { bundle: undefined });
    assert.deepEqual(await chooseServer(DEFAULTS, ctx), {
      command: { command: '/usr/bin/holodeck-lsp', args: ['serve'], origin: 'path' },
      message: undefined,
    });
    assert.deepEqual(ctx.probed, []);
  });

  it('gives way to holodeck.server.command', async () => {
    const ctx = machine(['/usr/bin/python3', '/usr/bin/uv'], { '/usr/bin/python3': python('/usr/bin/python3', [3, 12]) });
    assert.deepEqual(await chooseServer({ ...DEFAULTS, serverCommand: ['uv', 'run', 'holodeck-lsp'] }, ctx), {
      command: { command: '/usr/bin/uv', args: ['run', 'holodeck-lsp', 'serve'], origin: 'setting' },
    });
    assert.deepEqual(ctx.probed, []);
  });

  it('says so when holodeck.server.command names a program in no absolute folder of PATH', async () => {
    const ctx = machine(['node_modules/.bin/uv'], {}, { pathVariable: 'node_modules/.bin:/usr/bin' });
    assert.deepEqual(await chooseServer({ ...DEFAULTS, serverCommand: ['uv', 'run', 'holodeck-lsp'] }, ctx), {
      command: undefined,
      message: settingNotFoundMessage('uv'),
    });
    assert.match(settingNotFoundMessage('uv'), /names `uv`, which is in no absolute folder of PATH/);
  });

  it('tries py -3, then python, on Windows', () => {
    const ctx = machine(['C:\\Python\\python.exe', 'C:\\Windows\\py.exe'], {}, {
      platform: 'win32',
      pathVariable: 'C:\\Python;C:\\Windows',
      workspaceFolders: ['C:\\suite'],
    });
    assert.deepEqual(interpreterCandidates(ctx), [
      { argv: ['C:\\Windows\\py.exe', '-3'], origin: 'path' },
      { argv: ['C:\\Python\\python.exe'], origin: 'path' },
    ]);
  });

  it('finds the workspace\'s .venv interpreter under Scripts on Windows', () => {
    const ctx = machine(['C:\\suite\\.venv\\Scripts\\python.exe'], {}, {
      platform: 'win32',
      pathVariable: '',
      workspaceFolders: ['C:\\suite'],
    });
    assert.deepEqual(interpreterCandidates(ctx), [
      { argv: ['C:\\suite\\.venv\\Scripts\\python.exe'], origin: 'workspace-environment' },
    ]);
  });
});

describe('the environment\'s server (importStrategy fromEnvironment)', () => {
  it('finds holodeck-lsp in the workspace\'s .venv without the Python extension, before PATH', async () => {
    const ctx = machine(['/home/ada/suite/.venv/bin/python', '/home/ada/suite/.venv/bin/holodeck-lsp', '/usr/bin/holodeck-lsp'], {});
    assert.deepEqual(await chooseServer(FROM_ENVIRONMENT, ctx), {
      command: { command: '/home/ada/suite/.venv/bin/holodeck-lsp', args: ['serve'], origin: 'workspace-environment' },
      message: undefined,
    });
    assert.deepEqual(ctx.probed, [], 'no Python is run to find it');
  });

  it('does not use a restricted workspace\'s .venv', async () => {
    const ctx = machine(['/home/ada/suite/.venv/bin/python', '/home/ada/suite/.venv/bin/holodeck-lsp', '/usr/bin/holodeck-lsp'], {}, {
      workspaceTrusted: false,
    });
    const choice = await chooseServer(FROM_ENVIRONMENT, ctx);
    assert.deepEqual(choice.command, { command: '/usr/bin/holodeck-lsp', args: ['serve'], origin: 'path' });
  });

  it('prefers the Python extension\'s environment to the workspace\'s .venv', async () => {
    const ctx = machine(['/envs/a/bin/holodeck-lsp', '/home/ada/suite/.venv/bin/python', '/home/ada/suite/.venv/bin/holodeck-lsp'], {}, {
      pythonEnvironment: { executable: '/envs/a/bin/python' },
    });
    assert.equal((await chooseServer(FROM_ENVIRONMENT, ctx)).command?.command, '/envs/a/bin/holodeck-lsp');
  });

  it('says where it looked when holodeck-lsp is nowhere', async () => {
    const ctx = machine(['/usr/bin/python3'], { '/usr/bin/python3': python('/usr/bin/python3', [3, 12]) });
    assert.deepEqual(await chooseServer(FROM_ENVIRONMENT, ctx), { command: undefined, message: NOT_FOUND_MESSAGE });
    assert.match(NOT_FOUND_MESSAGE, /selected Python environment, the workspace's \.venv or on PATH/);
  });
});
