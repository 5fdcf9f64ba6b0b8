// End to end from the platform-specific .vsix alone: code-server with holodeck-lsp-linux-x64.vsix
// installed, NO settings, no holodeck-lsp on PATH, a python3 that cannot import holodeck_lsp and
// no PYTHONPATH. The extension must run its bundled server, which reports the planted bad regex.
//
// Needs scripts/e2e-setup.sh to have run (HOLODECK_E2E_CACHE) and `npm run package:bundled`.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { BUNDLED_VSIX, environmentWithoutServer, python3ImportsServer } from '../support/bundled';
import { E2E_SKIP, openCodeServer, problemsRow, type CodeServer } from '../support/codeServer';
import { EXTENSION_DIR } from '../support/server';

const SCREENSHOT = join(EXTENSION_DIR, 'test-results', 'e2e-bundled-problems.png');

describe('the bundled extension in code-server, with nothing installed beside it', { skip: E2E_SKIP, timeout: 600_000 }, () => {
  let session: CodeServer | undefined;

  before(async () => {
    assert.ok(existsSync(BUNDLED_VSIX), `${BUNDLED_VSIX} is not built: npm run package:bundled`);
    const env = environmentWithoutServer();
    // The extension host may take PATH from a login shell: neither PATH may offer holodeck-lsp.
    for (const path of [env.PATH, spawnSync('bash', ['-lc', 'echo "$PATH"'], { env, encoding: 'utf8' }).stdout.trim()]) {
      const found = spawnSync('sh', ['-c', 'command -v holodeck-lsp'], { env: { ...env, PATH: path }, encoding: 'utf8' });
      assert.notEqual(found.status, 0, `holodeck-lsp is on PATH (${path}): ${found.stdout}`);
      assert.equal(python3ImportsServer({ ...env, PATH: path }), undefined);
    }
    session = await openCodeServer({ vsix: BUNDLED_VSIX, settings: {}, env });
  });

  after(async () => session?.stop());

  it('shows the bad regex in the Problems panel, from the server bundled in the .vsix', async () => {
    const text = await problemsRow(session!, 'HL401', SCREENSHOT);
    assert.match(text, /regex/, text);
    assert.ok(text.endsWith('holodeck-lsp HL401 [Ln 23, Col 31]'), text);
    const log = session!.holodeckLog();
    assert.match(log, /Starting \S*python\S* -I \S*\/bundled\/run_server\.py serve \(from bundled, on a Python on PATH\)/, log);
  });
});
