import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { serverConfiguration } from '../../src/serverConfig';
import { DEFAULT_SETTINGS } from '../../src/settings';

const userWantsImports = { ...DEFAULT_SETTINGS, graderImport: 'trusted' as const, severity: { HL506: 'off' as const } };

describe('the trust rule', () => {
  it('lets a trusted workspace import graders when the user allows it', () => {
    assert.deepEqual(serverConfiguration(userWantsImports, true), {
      files: { include: ['**/agent.yaml', '**/agent.yml', '**/*.agent.yaml', '**/*.agent.yml'] },
      graders: { import: 'trusted' },
      workspaceTrusted: true,
      severity: { HL506: 'off' },
      validation: { timeLimit: 10 },
    });
  });

  it('never imports graders in a restricted workspace, whatever the setting says', () => {
    assert.deepEqual(serverConfiguration(userWantsImports, false), {
      files: { include: ['**/agent.yaml', '**/agent.yml', '**/*.agent.yaml', '**/*.agent.yml'] },
      graders: { import: 'never' },
      workspaceTrusted: false,
      severity: { HL506: 'off' },
      validation: { timeLimit: 10 },
    });
  });

  it('passes the recording to replay as run.replay, only when one is set', () => {
    assert.deepEqual(serverConfiguration({ ...DEFAULT_SETTINGS, runReplay: 'replay.jsonl' }, true).run, {
      replay: 'replay.jsonl',
    });
    assert.equal('run' in serverConfiguration(DEFAULT_SETTINGS, true), false);
  });

  it('passes the report to compare with as run.baseline, only when one is set', () => {
    assert.deepEqual(serverConfiguration({ ...DEFAULT_SETTINGS, runBaseline: 'ci/main.json' }, true).run, {
      baseline: 'ci/main.json',
    });
    const both = { ...DEFAULT_SETTINGS, runReplay: 'replay.jsonl', runBaseline: 'main.json' };
    assert.deepEqual(serverConfiguration(both, true).run, { replay: 'replay.jsonl', baseline: 'main.json' });
  });

  it('passes the time limit of a validation as validation.timeLimit', () => {
    const patient = { ...DEFAULT_SETTINGS, validationTimeLimit: 30 };
    assert.deepEqual(serverConfiguration(patient, false).validation, { timeLimit: 30 });
  });

  it('keeps "never" in a trusted workspace', () => {
    assert.deepEqual(serverConfiguration(DEFAULT_SETTINGS, true).graders, { import: 'never' });
  });
});
