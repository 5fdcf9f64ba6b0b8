// A Testing-view run of a suite that needs an extra the bundled server lacks: run again with the
// environment's holodeck-lsp, or say what to install where.
import '../support/vscodeStub';

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';

import type * as vscode from 'vscode';

import { runJobs, type RunDeps, type RunProgram } from '../../src/testing/execute';
import { bundleLacksExtras, missingExtras } from '../../src/testing/extras';
import { itemId } from '../../src/testing/items';
import { EXTENSION_DIR } from '../support/server';
import { FakeItem, FakeRun } from '../support/vscodeStub';

// The runner's own words (holodeck_lsp/install_hints.py; a Python test keeps them the same).
const MISSING_MCP = join(EXTENSION_DIR, 'test', 'fixtures', 'run', 'missing-extra.stderr');
const FAILED_TURN = join(EXTENSION_DIR, 'test', 'fixtures', 'events', 'failed-turn.jsonl');
// The run's working folder is the suite's: a real one.
const AGENT = join(mkdtempSync(join(tmpdir(), 'holodeck-extras-')), 'agent.yaml');
const URI = `file://${AGENT}`;
const PYTHON = '/usr/bin/python3';

/** A program that stands for holodeck-lsp: node running a script, whatever the arguments. */
function node(script: string, bundledPython?: string): RunProgram {
  return { command: process.execPath, args: ['-e', script], bundledPython };
}

const BUNDLED_WITHOUT_MCP = node(
  `process.stderr.write(require('fs').readFileSync(${JSON.stringify(MISSING_MCP)})); process.exit(2)`,
  PYTHON,
);
const ENVIRONMENT = node(`process.stdout.write(require('fs').readFileSync(${JSON.stringify(FAILED_TURN)}))`);

function suite(): FakeItem {
  const file = new FakeItem(URI, 'agent.yaml', { fsPath: AGENT, toString: () => URI } as never);
  const caseItem = new FakeItem(itemId({ uri: URI, caseIndex: 0 }), 'case', undefined);
  for (const turn of [0, 1]) {
    caseItem.children.add(new FakeItem(itemId({ uri: URI, caseIndex: 0, turn }), `turns[${turn}]`, undefined));
  }
  file.children.add(caseItem);
  return file;
}

async function runSuite(environment: RunProgram | undefined): Promise<{ run: FakeRun; log: string[] }> {
  const log: string[] = [];
  const deps: RunDeps = {
    program: async () => BUNDLED_WITHOUT_MCP,
    environmentProgram: async () => environment,
    fieldLocations: async () => undefined,
    runArguments: async () => ({ args: ['run', AGENT, '--events', '-', '-q'], cwd: dirname(AGENT), recording: '' }),
    log: { info: (line: string) => log.push(line), error: (line: string) => log.push(`error: ${line}`) } as never,
  };
  const run = new FakeRun();
  const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };
  const job = { file: suite() as unknown as vscode.TestItem, selection: {} };
  await runJobs(run as unknown as vscode.TestRun, [job], 'replay', token as never, deps);
  return { run, log };
}

const name = (id: string): string => id.slice(id.lastIndexOf('#') + 1);

describe('a suite that needs an extra the bundled server lacks', () => {
  it('reads the extras from the runner install hint', () => {
    assert.deepEqual(missingExtras(readFileSync(MISSING_MCP, 'utf8')), ['mcp']);
    const two = "needs qdrant_client: pip install -e '.[qdrant]' in a clone\nneeds pypdf: pip install -e '.[pdf]' ...\npip install -e '.[qdrant]'";
    assert.deepEqual(missingExtras(two), ['qdrant', 'pdf']);
    assert.deepEqual(missingExtras("error: tool 'x' did not start: connection refused"), []);
  });

  it("runs again with the environment's holodeck-lsp", async () => {
    const { run, log } = await runSuite(ENVIRONMENT);
    assert.ok(
      log.includes(`The bundled server lacks the \`mcp\` extra this suite needs: running it with ${process.execPath}`),
      log.join('\n'),
    );
    const results = run.calls.filter(([method]) => method === 'passed' || method === 'failed' || method === 'errored');
    assert.deepEqual(results.map(([method, id]) => [method, name(id)]), [
      ['passed', '0.0'],
      ['failed', '0.1'],
      ['failed', '0'],
    ]);
  });

  it('says what to install where when the environment has no holodeck-lsp', async () => {
    const { run } = await runSuite(undefined);
    const expected = bundleLacksExtras(['mcp'], PYTHON);
    assert.deepEqual(
      run.calls.map(([method, id, detail]) => [method, name(id), (detail as { message?: string } | undefined)?.message]),
      [
        ['enqueued', '0', undefined],
        ['enqueued', '0.0', undefined],
        ['enqueued', '0.1', undefined],
        ['errored', '0', expected],
        ['errored', '0.0', expected],
        ['errored', '0.1', expected],
      ],
    );
    assert.equal(
      expected,
      "This suite needs holodeck-lsp's `mcp` extra, which the server bundled with the extension does not include, " +
        "and no holodeck-lsp of your environment was found to run it with (the Python extension's interpreter, the " +
        "workspace's .venv or venv, PATH). Install holodeck-lsp with it into the Python that runs the bundled server, " +
        `${PYTHON}: \`"${PYTHON}" -m pip install -e '<holodeck-lsp clone>[mcp]'\` (once it is on PyPI: ` +
        `\`"${PYTHON}" -m pip install 'holodeck-lsp[mcp]'\`), or into the environment you select in the Python ` +
        'extension; the Testing view then runs such suites with that holodeck-lsp.',
    );
  });
});
