// Reading a bundle's manifest, and asking a real Python what it is.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import { probePython, readBundle, targetMatches } from '../../src/pythonRuntime';

describe('the bundle and the Python probe', () => {
  const root = mkdtempSync(join(tmpdir(), 'holodeck-bundle-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('reads the versions a bundle was built for, and finds none in the universal package', () => {
    assert.equal(readBundle(root), undefined);
    mkdirSync(join(root, 'bundled', 'libs'), { recursive: true });
    writeFileSync(join(root, 'bundled', 'run_server.py'), '');
    writeFileSync(join(root, 'bundled', 'libs', 'manifest.json'), JSON.stringify({ target: 'linux-x64', pythons: ['3.10'], tags: ['cp310'] }));
    assert.equal(readBundle(root, 'darwin', 'arm64'), undefined, 'a bundle built for another platform');
    assert.deepEqual(readBundle(root, 'linux', 'x64'), { script: join(root, 'bundled', 'run_server.py'), pythons: ['3.10'], tags: ['cp310'] });
    writeFileSync(join(root, 'bundled', 'libs', 'manifest.json'), '{"pythons": "3.10"}');
    assert.equal(readBundle(root, 'linux', 'x64'), undefined, 'a manifest it cannot read is no bundle');
  });

  it('matches VS Code targets to the platform and architecture node reports', () => {
    assert.ok(targetMatches('linux-x64', 'linux', 'x64'));
    assert.ok(targetMatches('alpine-arm64', 'linux', 'arm64'));
    assert.ok(targetMatches('win32-x64', 'win32', 'x64'));
    assert.ok(targetMatches('darwin-arm64', 'darwin', 'arm64'));
    assert.ok(!targetMatches('darwin-x64', 'darwin', 'arm64'));
    assert.ok(!targetMatches('linux-x64', 'win32', 'x64'));
  });

  it('asks python3 its version and interpreter path, and gets nothing from a program that does not run', async () => {
    const info = await probePython(['python3']);
    assert.ok(info, 'python3 is on PATH on the machines the tests run on');
    assert.equal(info.implementation, 'cpython');
    assert.equal(info.version[0], 3);
    assert.match(info.executable, /python/);
    assert.equal(await probePython([join(root, 'no-such-python')]), undefined);
  });
});
