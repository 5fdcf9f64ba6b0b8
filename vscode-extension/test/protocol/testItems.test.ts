// The requests behind the Testing view, against the real holodeck-lsp: the suite's cases and turns
// with their ranges (`holodeck/testItems`, the types the extension reads), where a run event's
// field path stands (`holodeck/fieldLocations`) and the command line of a run, as the server's own
// lenses run it (`holodeck/runArguments`).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { DidOpenTextDocumentNotification } from 'vscode-languageserver-protocol/node';

import {
  FIELD_LOCATIONS,
  RUN_ARGUMENTS,
  TEST_ITEMS,
  type RunArguments,
  type ServerLocation,
  type SuiteItems,
} from '../../src/testing/protocol';
import { FIXTURE_WORKSPACE, serverUnavailableReason, startServer, testSettings, type RunningServer } from '../support/server';

const FIXTURE = join(FIXTURE_WORKSPACE, 'agent.yaml');
const FIXTURE_URI = `file://${FIXTURE}`;
const LINES = readFileSync(FIXTURE, 'utf8').split('\n');

const unavailable = serverUnavailableReason();
const skip = unavailable !== undefined && process.env.CI !== 'true' ? unavailable : false;

function lineOf(text: string): number {
  return LINES.findIndex((line) => line.includes(text));
}

describe('the Testing view\'s requests to holodeck-lsp', { skip }, () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ settings: testSettings(), workspaceTrusted: true, pullDiagnostics: true });
  });
  after(async () => server?.stop());

  it('lists the suite\'s case and turns, from disk before the file is opened and from the buffer after', async () => {
    const fromDisk = await itemsOf();
    assert.equal(fromDisk.uri, FIXTURE_URI);
    const last = LINES.length - 2; // the text ends with a line break
    assert.deepEqual(
      fromDisk.cases.map(({ index, label, detail, range }) => ({ index, label, detail, range })),
      [
        {
          index: 0,
          label: 'revenue by year',
          detail: '2 turns',
          range: { start: { line: lineOf('- name: revenue by year'), character: 2 }, end: { line: last, character: LINES[last].length } },
        },
      ],
    );
    assert.deepEqual(
      fromDisk.cases[0].turns.map(({ index, label, detail, range }) => ({ index, label, detail, start: range.start })),
      [
        { index: 0, label: 'turns[0]', detail: 'What was the revenue in 2009?', start: { line: lineOf('- input: What was'), character: 6 } },
        { index: 1, label: 'turns[1]', detail: 'And in 2010?', start: { line: lineOf('- input: And in 2010?'), character: 6 } },
      ],
    );
    await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: FIXTURE_URI, languageId: 'yaml', version: 1, text: LINES.join('\n').replace('revenue by year', 'revenue, by year') },
    });
    assert.equal((await itemsOf()).cases[0].label, 'revenue, by year');
  });

  it('places a field path of the run events on its line', async () => {
    const ranges = await server.request(
      server.connection.sendRequest<(ServerLocation | null)[]>(FIELD_LOCATIONS, {
        textDocument: { uri: FIXTURE_URI },
        paths: ['test_cases[0].turns[0].expected_tools[0].args.unit', 'test_cases[0].turns[0].ground_truth', 'test_cases[3]'],
      }),
    );
    assert.deepEqual(
      ranges.map((location) => (location === null ? null : [location.uri, location.range.start.line])),
      [[FIXTURE_URI, lineOf('unit: {regex')], [FIXTURE_URI, lineOf('ground_truth: "206588"')], null],
    );
  });

  it("gives the command line of a run, replaying the suite's one recording", async () => {
    const recording = join(dirname(FIXTURE), 'replay.jsonl');
    assert.equal((await itemsOf()).recording, recording);
    const found = await server.request(
      server.connection.sendRequest<RunArguments | null>(RUN_ARGUMENTS, {
        textDocument: { uri: FIXTURE_URI },
        mode: 'replay',
        case: 0,
        upToTurn: 1,
        recording: '',
      }),
    );
    assert.deepEqual(found, {
      args: ['run', FIXTURE, '--events', '-', '-q', '--no-history', '--case', '0', '--up-to-turn', '1', '--replay', recording],
      cwd: dirname(FIXTURE),
      recording,
    });
  });

  async function itemsOf(): Promise<SuiteItems> {
    const found = await server.request(server.connection.sendRequest<SuiteItems | null>(TEST_ITEMS, { textDocument: { uri: FIXTURE_URI } }));
    assert.ok(found, 'no items');
    return found;
  }
});
