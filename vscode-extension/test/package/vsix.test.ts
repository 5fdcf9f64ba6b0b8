// The packaged .vsix: bundle, schemas and a manifest listing our contributions.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { zipEntries } from '../support/zip';

const root = join(__dirname, '..', '..', '..');
const vsix = join(root, 'holodeck-lsp.vsix');

describe('the packaged extension', () => {
  const entries = zipEntries(vsix);

  it('ships the bundle, both schemas, the README and nothing of the sources', () => {
    const files = [...entries.keys()].filter((name) => name.startsWith('extension/')).sort();
    assert.deepEqual(files, [
      'extension/LICENSE.txt',
      'extension/dist/extension.js',
      'extension/package.json',
      'extension/readme.md',
      'extension/schema/holodeck-agent.schema.json',
      'extension/schema/holodeck-test-cases.schema.json',
    ]);
  });

  it('lists the command, settings, trust support and schema in its manifest', () => {
    const packaged = JSON.parse(entries.get('extension/package.json')!().toString('utf8'));
    const source = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    assert.deepEqual(packaged.contributes, source.contributes);
    assert.deepEqual(packaged.capabilities, source.capabilities);
    assert.deepEqual(packaged.main, './dist/extension.js');
    const schema = JSON.parse(entries.get('extension/schema/holodeck-agent.schema.json')!().toString('utf8'));
    assert.equal(typeof schema, 'object');
  });
});
