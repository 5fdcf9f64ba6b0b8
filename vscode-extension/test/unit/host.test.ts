// The adapters that read VS Code's state, against a stubbed `vscode` module.
import '../support/vscodeStub';

import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';

import { chooseServer } from '../../src/bundled';
import { NOT_FOUND_MESSAGE } from '../../src/serverCommand';
import { currentServerConfiguration, currentSettings, discoveryContext, yamlExtensionValidates } from '../../src/host';
import { resetState, state } from '../support/vscodeStub';

describe('reading VS Code state', () => {
  beforeEach(resetState);

  it('reads the holodeck section into settings', () => {
    state.configuration.holodeck = { 'server.command': 'holodeck-lsp-dev', 'graders.import': 'trusted' };
    const { settings } = currentSettings();
    assert.deepEqual([settings.serverCommand, settings.graderImport], [['holodeck-lsp-dev'], 'trusted']);
  });

  it('sends the server "never" and workspaceTrusted=false in a restricted workspace', () => {
    state.configuration.holodeck = { 'graders.import': 'trusted', 'files.include': ['**/agent.yaml'] };
    state.isTrusted = false;
    assert.deepEqual(currentServerConfiguration(), {
      files: { include: ['**/agent.yaml'] },
      graders: { import: 'never' },
      workspaceTrusted: false,
      severity: {},
      validation: { timeLimit: 10 },
    });
    state.isTrusted = true;
    assert.deepEqual(currentServerConfiguration().graders, { import: 'trusted' });
  });

  it('builds the discovery context from the workspace and the Python extension', async () => {
    state.workspaceFolders = ['/home/ada/suite'];
    state.isTrusted = false;
    state.extensions['ms-python.python'] = {
      isActive: true,
      activate: async () => undefined,
      exports: {
        environments: {
          getActiveEnvironmentPath: () => ({ path: '/envs/a' }),
          resolveEnvironment: async () => ({ executable: { uri: { fsPath: '/envs/a/bin/python' } } }),
        },
      },
    };
    const ctx = await discoveryContext();
    assert.deepEqual(
      { env: ctx.pythonEnvironment, trusted: ctx.workspaceTrusted, folders: ctx.workspaceFolders },
      { env: { executable: '/envs/a/bin/python' }, trusted: false, folders: ['/home/ada/suite'] },
    );
    assert.equal(ctx.isExecutableFile(process.execPath), true);
    assert.equal(ctx.isExecutableFile('/nonexistent/holodeck-lsp'), false);
  });

  it('finds holodeck-lsp in a trusted workspace\'s .venv with no Python extension, and says so when untrusted', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'holodeck-suite-'));
    const savedPath = process.env.PATH;
    try {
      mkdirSync(join(folder, '.venv', 'bin'), { recursive: true });
      for (const program of ['python', 'holodeck-lsp']) {
        writeFileSync(join(folder, '.venv', 'bin', program), '#!/bin/sh\n');
        chmodSync(join(folder, '.venv', 'bin', program), 0o755);
      }
      process.env.PATH = '';
      state.workspaceFolders = [folder];
      state.configuration.holodeck = { 'server.importStrategy': 'fromEnvironment' };
      const choice = await chooseServer(currentSettings().settings, await discoveryContext());
      assert.deepEqual(choice.command, {
        command: join(folder, '.venv', 'bin', 'holodeck-lsp'),
        args: ['serve'],
        origin: 'workspace-environment',
      });
      state.isTrusted = false;
      assert.deepEqual(await chooseServer(currentSettings().settings, await discoveryContext()), {
        command: undefined,
        message: NOT_FOUND_MESSAGE,
      });
    } finally {
      process.env.PATH = savedPath;
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('knows when the YAML extension validates', () => {
    assert.equal(yamlExtensionValidates(), false);
    state.extensions['redhat.vscode-yaml'] = { isActive: true, exports: {}, activate: async () => ({}) };
    assert.equal(yamlExtensionValidates(), true);
    state.configuration.yaml = { validate: false };
    assert.equal(yamlExtensionValidates(), false);
  });
});
