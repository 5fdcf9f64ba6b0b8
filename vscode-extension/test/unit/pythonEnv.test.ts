import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { onPythonEnvironmentChange, selectedPythonEnvironment, type ExtensionRegistry } from '../../src/pythonEnv';

function registry(exports: unknown, isActive = true): ExtensionRegistry & { activations: number } {
  const result = {
    activations: 0,
    getExtension(id: string) {
      if (id !== 'ms-python.python') {
        return undefined;
      }
      return {
        isActive,
        exports: isActive ? exports : undefined,
        activate: async () => {
          result.activations += 1;
          return exports;
        },
      };
    },
  };
  return result;
}

function pythonApi(executable: string | undefined) {
  const listeners: (() => void)[] = [];
  return {
    listeners,
    environments: {
      getActiveEnvironmentPath: () => ({ id: 'env', path: '/envs/a' }),
      resolveEnvironment: async (env: { path: string }) =>
        env.path === '/envs/a' && executable ? { executable: { uri: { fsPath: executable } } } : undefined,
      onDidChangeActiveEnvironmentPath: (listener: () => void) => {
        listeners.push(listener);
        return { dispose: () => listeners.splice(listeners.indexOf(listener), 1) };
      },
    },
  };
}

describe('the selected Python environment', () => {
  it('is read from the Python extension, activating it when needed', async () => {
    const reg = registry(pythonApi('/envs/a/bin/python'), false);
    assert.deepEqual(await selectedPythonEnvironment(reg), { executable: '/envs/a/bin/python' });
    assert.equal(reg.activations, 1);
  });

  it('is absent without the Python extension, or when it cannot resolve one', async () => {
    assert.equal(await selectedPythonEnvironment({ getExtension: () => undefined }), undefined);
    assert.equal(await selectedPythonEnvironment(registry(pythonApi(undefined))), undefined);
    assert.equal(await selectedPythonEnvironment(registry({ noEnvironmentsApi: true })), undefined);
  });

  it('is absent when the Python extension throws', async () => {
    const broken = registry({
      environments: {
        getActiveEnvironmentPath: () => {
          throw new Error('not ready');
        },
        resolveEnvironment: async () => undefined,
      },
    });
    assert.equal(await selectedPythonEnvironment(broken), undefined);
  });

  it('reports a change of the selected environment', async () => {
    const api = pythonApi('/envs/a/bin/python');
    let changes = 0;
    const subscription = await onPythonEnvironmentChange(registry(api), () => (changes += 1));
    api.listeners.forEach((listener) => listener());
    subscription?.dispose();
    api.listeners.forEach((listener) => listener());
    assert.equal(changes, 1);
  });
});
