// End to end in a real VS Code: code-server (Code OSS) with the packaged .vsix installed, driven by
// headless Chromium. Opens the bad-regex fixture and reads our diagnostic off the Problems panel.
//
// Needs scripts/e2e-setup.sh to have run; HOLODECK_E2E_CACHE names the folder it printed.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { E2E_SKIP, openCodeServer, problemsRow, type CodeServer } from '../support/codeServer';
import { discoverServer, EXTENSION_DIR, testSettings } from '../support/server';
import * as testing from './testingView';

const VSIX = join(EXTENSION_DIR, 'holodeck-lsp.vsix');
const SCREENSHOT = join(EXTENSION_DIR, 'test-results', 'e2e-problems.png');

describe('the extension in code-server', { skip: E2E_SKIP, timeout: 600_000 }, () => {
  let session: CodeServer | undefined;
  let brokenLine = 0;

  before(async () => {
    // code-server's extension host takes PATH from a login shell, so the server is named by the
    // setting a user sets when holodeck-lsp is not in the selected environment nor on PATH.
    const found = discoverServer(testSettings());
    assert.ok(found, 'holodeck-lsp is not installed');
    session = await openCodeServer({
      vsix: VSIX,
      settings: { 'holodeck.server.command': found.command },
      env: process.env,
      prepare: (workspace) => (brokenLine = testing.prepareSuites(workspace).brokenLine),
    });
  });

  after(async () => session?.stop());

  it('shows the bad regex in the Problems panel, on line 23, from holodeck-lsp', async () => {
    const text = await problemsRow(session!, 'HL401', SCREENSHOT);
    assert.match(text, /regex/, text);
    assert.ok(text.endsWith('holodeck-lsp HL401 [Ln 23, Col 31]'), text);
  });

  it('lists the suites, cases and turns in the Testing view; Run with replay passes the example, fails the broken copy at its line', async () => {
    await testing.checkTestingView(session!, brokenLine, join(EXTENSION_DIR, 'test-results', 'e2e-testing-view.png'));
  });
});
