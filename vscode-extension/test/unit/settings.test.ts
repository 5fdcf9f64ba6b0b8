import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { DEFAULT_SETTINGS, readSettings, type ConfigReader } from '../../src/settings';

function reader(values: Record<string, unknown>): ConfigReader {
  return { get: (key) => values[key] };
}

describe('settings resolution', () => {
  it('gives the defaults when nothing is set', () => {
    assert.deepEqual(readSettings(reader({})), {
      settings: {
        serverCommand: [],
        serverArgs: ['serve'],
        importStrategy: 'useBundled',
        include: ['**/agent.yaml', '**/agent.yml', '**/*.agent.yaml', '**/*.agent.yml'],
        graderImport: 'never',
        severity: {},
        yamlDeduplicate: true,
        runReplay: '',
        runBaseline: '',
        validationTimeLimit: 10,
      },
      problems: [],
    });
  });

  it('reads every setting the user gives', () => {
    const result = readSettings(
      reader({
        'server.command': ['uv', 'run', 'holodeck-lsp'],
        'server.args': ['serve', '--log-level', 'debug'],
        'server.importStrategy': 'fromEnvironment',
        'files.include': ['**/agent.yaml', '**/suites/*.yaml'],
        'graders.import': 'trusted',
        severity: { HL401: 'warning', HL307: 'off' },
        'yamlExtension.deduplicate': false,
        'run.replay': ' recordings/suite.jsonl ',
        'run.baseline': 'ci/main.json',
        'validation.timeLimit': 2.5,
      }),
    );
    assert.deepEqual(result, {
      settings: {
        serverCommand: ['uv', 'run', 'holodeck-lsp'],
        serverArgs: ['serve', '--log-level', 'debug'],
        importStrategy: 'fromEnvironment',
        include: ['**/agent.yaml', '**/suites/*.yaml'],
        graderImport: 'trusted',
        severity: { HL401: 'warning', HL307: 'off' },
        yamlDeduplicate: false,
        runReplay: 'recordings/suite.jsonl',
        runBaseline: 'ci/main.json',
        validationTimeLimit: 2.5,
      },
      problems: [],
    });
  });

  it('takes a command given as one string, and treats an empty one as unset', () => {
    assert.deepEqual(readSettings(reader({ 'server.command': ' /opt/hl/bin/holodeck-lsp ' })).settings.serverCommand, [
      '/opt/hl/bin/holodeck-lsp',
    ]);
    assert.deepEqual(readSettings(reader({ 'server.command': '' })).settings.serverCommand, []);
  });

  it('replaces invalid values by their defaults and says which', () => {
    const result = readSettings(
      reader({
        'server.command': 42,
        'server.args': 'serve',
        'server.importStrategy': 'bundled',
        'files.include': [],
        'graders.import': 'always',
        severity: { HL401: 'fatal', HL101: 'hint' },
        'yamlExtension.deduplicate': 'yes',
        'run.replay': ['a.jsonl'],
        'run.baseline': false,
        'validation.timeLimit': 0,
      }),
    );
    assert.deepEqual(result, {
      settings: { ...DEFAULT_SETTINGS, severity: { HL101: 'hint' } },
      problems: [
        'holodeck.server.command: ignoring invalid value 42',
        'holodeck.server.args: ignoring invalid value "serve"',
        'holodeck.server.importStrategy: ignoring invalid value "bundled"',
        'holodeck.files.include: ignoring invalid value []',
        'holodeck.graders.import: ignoring invalid value "always"',
        'holodeck.severity.HL401: ignoring invalid value "fatal"',
        'holodeck.yamlExtension.deduplicate: ignoring invalid value "yes"',
        'holodeck.run.replay: ignoring invalid value ["a.jsonl"]',
        'holodeck.run.baseline: ignoring invalid value false',
        'holodeck.validation.timeLimit: ignoring invalid value 0',
      ],
    });
  });
});
