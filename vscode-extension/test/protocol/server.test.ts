// The real holodeck-lsp, started with the extension's own options, over the language client's
// protocol library: diagnostics (pulled as VS Code does, and pushed), hover and completion.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import {
  CompletionRequest,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentDiagnosticRequest,
  HoverRequest,
  type CompletionItem,
  type CompletionList,
  type Diagnostic,
  type MarkupContent,
} from 'vscode-languageserver-protocol/node';

import { serverConfiguration } from '../../src/serverConfig';
import { FIXTURE_WORKSPACE, serverUnavailableReason, startServer, testSettings, type RunningServer } from '../support/server';

const FIXTURE = join(FIXTURE_WORKSPACE, 'agent.yaml');
const FIXTURE_URI = `file://${FIXTURE}`;
const FIXTURE_TEXT = readFileSync(FIXTURE, 'utf8');
const REGEX_LINE = 22; // 0-based: `              unit: {regex: "^(unclosed"}`
const REGEX_OPEN_PAREN = FIXTURE_TEXT.split('\n')[REGEX_LINE].indexOf('(');

// In CI the server must be there; on a developer's machine without it, say so and skip.
const unavailable = serverUnavailableReason();
const skip = unavailable !== undefined && process.env.CI !== 'true' ? unavailable : false;

/** The one diagnostic the fixture deserves, with the server's own wording of the message. */
function assertBadRegexOnly(diagnostics: Diagnostic[]): void {
  assert.equal(diagnostics.length, 1, JSON.stringify(diagnostics, null, 2));
  const [diagnostic] = diagnostics;
  assert.match(typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value, /regex/);
  assert.deepEqual(
    { ...diagnostic, message: '<server text>', range: { start: diagnostic.range.start } },
    {
      ...diagnostic,
      message: '<server text>',
      source: 'holodeck-lsp',
      code: 'HL401',
      severity: 1,
      range: { start: { line: REGEX_LINE, character: REGEX_OPEN_PAREN } },
    },
  );
}

function openFixture(server: RunningServer): Promise<void> {
  return server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: FIXTURE_URI, languageId: 'yaml', version: 1, text: FIXTURE_TEXT },
  });
}

describe('holodeck-lsp with the extension\'s options, as VS Code drives it (pull diagnostics)', { skip }, () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ settings: testSettings(), workspaceTrusted: false, pullDiagnostics: true });
  });
  after(async () => server?.stop());

  it('reports the bad regex, at the parenthesis, when asked for the document\'s diagnostics', async () => {
    await openFixture(server);
    const report = await server.request(
      server.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: FIXTURE_URI } }),
    );
    assert.equal(report.kind, 'full');
    assertBadRegexOnly(report.kind === 'full' ? report.items : []);
  });

  it('describes the field under the cursor on hover', async () => {
    const character = FIXTURE_TEXT.split('\n')[REGEX_LINE].indexOf('regex') + 2;
    const hover = await server.request(
      server.connection.sendRequest(HoverRequest.type, {
        textDocument: { uri: FIXTURE_URI },
        position: { line: REGEX_LINE, character },
      }),
    );
    assert.ok(hover, 'no hover');
    const contents = hover.contents as MarkupContent;
    assert.equal(typeof contents.value, 'string');
    assert.match(contents.value, /regex/i);
  });

  it('completes the keys of a turn on a half-typed new line', async () => {
    const lines = FIXTURE_TEXT.replace(/\n$/, '').split('\n');
    const text = `${lines.join('\n')}\n        \n`;
    await server.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: FIXTURE_URI, version: 2 },
      contentChanges: [{ text }],
    });
    const result = await server.request(
      server.connection.sendRequest(CompletionRequest.type, {
        textDocument: { uri: FIXTURE_URI },
        position: { line: lines.length, character: 8 },
      }),
    );
    const items: CompletionItem[] = Array.isArray(result) ? result : ((result as CompletionList | null)?.items ?? []);
    const labels = items.map((item) => item.label);
    for (const key of ['ground_truth', 'expected_tools', 'evaluations']) {
      assert.ok(labels.includes(key), `${key} not in ${JSON.stringify(labels)}`);
    }
    assert.ok(!labels.includes('input'), 'offers `input`, which this turn already has');
  });

  it('asks for its configuration and gets the trust-checked object', async () => {
    const expected = serverConfiguration(testSettings(), false);
    assert.deepEqual(await server.firstConfigurationAnswer, [expected]);
    assert.deepEqual(expected.graders, { import: 'never' });
    assert.equal(expected.workspaceTrusted, false);
    for (const answer of server.configurationAnswers) {
      assert.deepEqual(answer, [expected]);
    }
  });
});

describe('holodeck-lsp for a client that only takes pushed diagnostics', { skip }, () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ settings: testSettings(), workspaceTrusted: true, pullDiagnostics: false });
  });
  after(async () => server?.stop());

  it('pushes the bad regex diagnostic after the fixture is opened', async () => {
    const pushed = server.nextDiagnostics(FIXTURE_URI);
    await openFixture(server);
    assertBadRegexOnly(await pushed);
  });
});
