// The manifest agrees with the code: settings, defaults, activation, trust and schemas.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { RESTART_SECTIONS, DEFAULT_INCLUDE, DEFAULT_SETTINGS, TIME_LIMIT_RANGE } from '../../src/settings';

const root = join(__dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const properties: Record<string, { default: unknown }> = manifest.contributes.configuration.properties;

describe('the extension manifest', () => {
  it('declares exactly the settings the extension reads', () => {
    assert.deepEqual(Object.keys(properties).sort(), [
      'holodeck.files.include',
      'holodeck.graders.import',
      'holodeck.run.baseline',
      'holodeck.run.replay',
      'holodeck.server.args',
      'holodeck.server.command',
      'holodeck.server.importStrategy',
      'holodeck.severity',
      'holodeck.trace.server',
      'holodeck.validation.timeLimit',
      'holodeck.yamlExtension.deduplicate',
    ]);
    assert.deepEqual(properties['holodeck.files.include'].default, DEFAULT_INCLUDE);
    assert.deepEqual(properties['holodeck.graders.import'].default, 'never');
    assert.deepEqual(properties['holodeck.server.args'].default, ['serve']);
    assert.deepEqual(properties['holodeck.run.replay'].default, '');
    assert.deepEqual(properties['holodeck.run.baseline'].default, DEFAULT_SETTINGS.runBaseline);
    assert.deepEqual(properties['holodeck.server.importStrategy'].default, DEFAULT_SETTINGS.importStrategy);
    const limit = properties['holodeck.validation.timeLimit'] as { default: unknown; minimum: number; maximum: number };
    assert.deepEqual([limit.default, [limit.minimum, limit.maximum]], [DEFAULT_SETTINGS.validationTimeLimit, TIME_LIMIT_RANGE]);
    for (const section of RESTART_SECTIONS) {
      assert.ok(Object.keys(properties).some((key) => key.startsWith(section)), section);
    }
  });

  it('activates only on workspaces holding the default agent files', () => {
    assert.deepEqual(
      manifest.activationEvents,
      DEFAULT_INCLUDE.map((pattern) => `workspaceContains:${pattern}`),
    );
  });

  it('supports restricted workspaces in part, and keeps them from choosing the server', () => {
    assert.deepEqual(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
    assert.deepEqual(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations, [
      'holodeck.server.command',
      'holodeck.server.args',
      'holodeck.server.importStrategy',
      'holodeck.graders.import',
    ]);
  });

  it('restricts every setting that chooses a program, its arguments or whether code runs', () => {
    // By name, so that a new setting of this kind cannot be added unrestricted.
    const choosesWhatRuns = /\.server\.|command|args|program|executable|interpreter|python|strategy|import|env/i;
    const restricted: string[] = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
    const unrestricted = Object.keys(properties).filter((key) => choosesWhatRuns.test(key) && !restricted.includes(key));
    assert.deepEqual(unrestricted, []);
  });

  it('contributes the restart command and the agent schema for the YAML extension', () => {
    assert.deepEqual(manifest.contributes.commands, [
      { command: 'holodeck.restartServer', title: 'Restart Server', category: 'HoloDeck' },
    ]);
    assert.deepEqual(manifest.contributes.yamlValidation, [
      {
        fileMatch: ['agent.yaml', 'agent.yml', '*.agent.yaml', '*.agent.yml'],
        url: './schema/holodeck-agent.schema.json',
      },
    ]);
  });
});
