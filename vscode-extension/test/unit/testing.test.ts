// The Testing view against a stubbed `vscode`: items from the server's answer, profiles only in a
// trusted workspace, a run reported from the events of the child it spawns.
import '../support/vscodeStub';

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';

import { SuiteTests, type ServerRequests } from '../../src/testing/controller';
import { itemId } from '../../src/testing/items';
import type { ServerRange, SuiteItems } from '../../src/testing/protocol';
import { EXTENSION_DIR } from '../support/server';
import { events, resetState, state, type FakeController, type FakeItem } from '../support/vscodeStub';

const FAILED_TURN = join(EXTENSION_DIR, 'test', 'fixtures', 'events', 'failed-turn.jsonl');
// The same run with `--baseline` naming the report of the example before the change.
const REGRESSED_TURN = join(EXTENSION_DIR, 'test', 'fixtures', 'events', 'regressed-turn.jsonl');

function range(line: number, character = 0, endLine = line, endCharacter = 40): ServerRange {
  return { start: { line, character }, end: { line: endLine, character: endCharacter } };
}

const SUITE: SuiteItems = {
  uri: '',
  recording: '',
  cases: [
    {
      index: 0, label: 'operating cash flow change', detail: '2 turns', range: range(10, 2, 19),
      turns: [
        { index: 0, label: 'turns[0]', detail: 'What was it in 2019?', range: range(12, 6, 15) },
        { index: 1, label: 'turns[1]', detail: 'And in 2020?', range: range(16, 6, 19) },
      ],
    },
    { index: 1, label: 'test_cases[1]', detail: 'One question', range: range(21, 2, 23), turns: [] },
  ],
};

/**
 * The server's side: the suite's items with its recording beside it, the command line of a run,
 * and field ranges on the line they name.
 */
class FakeServer implements ServerRequests {
  readonly asked: [string, unknown][] = [];
  suite: SuiteItems | null = SUITE;
  async request<R>(method: string, params: unknown): Promise<R | undefined> {
    this.asked.push([method, params]);
    const uri = (params as { textDocument: { uri: string } }).textDocument.uri;
    const agent = uri.replace('file://', '');
    const recording = join(dirname(agent), 'replay.jsonl');
    if (method === 'holodeck/testItems') {
      return (this.suite === null ? null : { ...this.suite, uri: this.suite.uri || uri, recording }) as R;
    }
    if (method === 'holodeck/runArguments') {
      const { mode, case: index, baseline } = params as { mode: string; case?: number; baseline?: string };
      const args = ['run', agent, '--events', '-', '-q', ...(index === undefined ? [] : ['--case', String(index)])];
      const compared = baseline ? ['--baseline', join(dirname(agent), baseline)] : [];
      return { args: [...args, ...(mode === 'replay' ? ['--replay', recording] : []), ...compared], cwd: dirname(agent), recording } as R;
    }
    const paths = (params as { paths: string[] }).paths;
    const line = (path: string): number | undefined =>
      path.endsWith('.ground_truth') ? 18 : path.endsWith('.args.year') ? 17 : path.endsWith('turns[1].input') ? 16 : undefined;
    return paths.map((path) => (line(path) === undefined ? null : { uri, range: range(line(path)!, 8) })) as R;
  }
}

class FakeLog {
  readonly lines: string[] = [];
  info(line: string): void {
    this.lines.push(line);
  }
  warn(line: string): void {
    this.lines.push(`warn: ${line}`);
  }
  error(line: string): void {
    this.lines.push(`error: ${line}`);
  }
}

async function until<T>(check: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 500; i += 1) {
    const found = check();
    if (found !== undefined) {
      return found;
    }
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`gave up waiting for ${what}`);
}

function tree(items: { forEach(cb: (item: FakeItem) => void): void }): unknown[] {
  const out: unknown[] = [];
  items.forEach((item) =>
    out.push([item.label, item.description, item.range?.start.line, ...(item.children.size ? [tree(item.children)] : [])]),
  );
  return out;
}

describe('the Testing view', () => {
  let suiteDir: string;
  let agent: string;
  let server: FakeServer;
  let log: FakeLog;

  beforeEach(() => {
    resetState();
    suiteDir = join(mkdtempSync(join(tmpdir(), 'holodeck-testing-')), 'suite');
    mkdirSync(suiteDir);
    agent = join(suiteDir, 'agent.yaml');
    writeFileSync(agent, 'name: a\n');
    state.workspaceFolders = [suiteDir];
    state.files['**/agent.yaml'] = [agent];
    server = new FakeServer();
    log = new FakeLog();
  });

  function start(): { tests: SuiteTests; controller: FakeController } {
    const tests = new SuiteTests(server, log as never);
    return { tests, controller: state.controllers[0] };
  }

  it('lists each suite with its cases and turns, as the server places them', async () => {
    const { tests, controller } = start();
    await tests.discover();
    assert.deepEqual(tree(controller.items), [
      ['agent.yaml', undefined, undefined, [
        ['operating cash flow change', '2 turns', 10, [
          ['turns[0]', 'What was it in 2019?', 12],
          ['turns[1]', 'And in 2020?', 16],
        ]],
        ['test_cases[1]', 'One question', 21],
      ]],
    ]);
    tests.dispose();
  });

  it('marks the flaky cases and turns of the runs kept beside the suite', async () => {
    const flaky = { runs: 4, passed: 2, flaky: true, failingSince: '2026-12-07 03:04:35', text: 'passed 2 of the last 4 run(s); flaky; failing since 2026-12-07 03:04:35' };
    const steady = { runs: 4, passed: 4, flaky: false, failingSince: null, text: 'passed 4 of the last 4 run(s)' };
    const [first, second] = SUITE.cases;
    server.suite = {
      ...SUITE,
      cases: [
        { ...first, history: steady, turns: [{ ...first.turns[0], history: steady }, { ...first.turns[1], history: flaky }] },
        { ...second, history: flaky },
      ],
    };
    const { tests, controller } = start();
    await tests.discover();
    assert.deepEqual(tree(controller.items), [
      ['agent.yaml', undefined, undefined, [
        ['operating cash flow change', '2 turns', 10, [
          ['turns[0]', 'What was it in 2019?', 12],
          ['turns[1]', `And in 2020? · flaky: ${flaky.text}`, 16],
        ]],
        ['test_cases[1]', `One question · flaky: ${flaky.text}`, 21],
      ]],
    ]);
    const tags: string[][] = [];
    controller.items.forEach((file) => file.children.forEach((item) => {
      tags.push(item.tags.map((tag) => tag.id));
      item.children.forEach((turn) => tags.push(turn.tags.map((tag) => tag.id)));
    }));
    assert.deepEqual(tags, [[], [], ['flaky'], ['flaky']]);
    tests.dispose();
  });

  it('asks again after an edit, and keeps the items while the text does not parse', async () => {
    const { tests, controller } = start();
    await tests.discover();
    const document = { uri: { scheme: 'file', fsPath: agent, toString: () => `file://${agent}` } };
    server.suite = { uri: `file://${agent}`, recording: '', cases: [{ ...SUITE.cases[1], index: 0, range: range(11, 2, 13) }] };
    events.changeDocument.fire({ document });
    await until(() => (controller.items.get(`file://${agent}`)?.children.size === 1 ? true : undefined), 'the refresh');
    assert.deepEqual(tree(controller.items), [['agent.yaml', undefined, undefined, [['test_cases[1]', 'One question', 11]]]]);
    const asked = server.asked.length;
    server.suite = null;
    events.changeDocument.fire({ document });
    await until(() => (server.asked.length > asked ? true : undefined), 'the second refresh');
    assert.deepEqual(tree(controller.items), [['agent.yaml', undefined, undefined, [['test_cases[1]', 'One question', 11]]]]);
    tests.dispose();
  });

  it("places a suite's cases in its test_cases_file, and asks again when that file is edited", async () => {
    const cases = join(suiteDir, 'tests', 'cases.yaml');
    server.suite = { ...SUITE, uri: `file://${cases}` };
    const { tests, controller } = start();
    await tests.discover();
    const file = controller.items.get(`file://${agent}`)!;
    assert.equal(file.uri?.fsPath, agent);
    const caseItem = file.children.get(itemId({ uri: file.id, caseIndex: 0 }))!;
    assert.deepEqual([caseItem.uri?.fsPath, caseItem.children.get(itemId({ uri: file.id, caseIndex: 0, turn: 1 }))?.uri?.fsPath], [cases, cases]);
    const asked = server.asked.length;
    events.changeDocument.fire({ document: { uri: { scheme: 'file', fsPath: cases, toString: () => `file://${cases}` } } });
    await until(() => (server.asked.length > asked ? true : undefined), 'the suite asked again');
    assert.deepEqual(server.asked.at(-1), ['holodeck/testItems', { textDocument: { uri: `file://${agent}` }, recording: '' }]);
    tests.dispose();
  });

  it('follows suites created and deleted on disk, watching the include patterns', async () => {
    state.configuration.holodeck = { 'files.include': ['**/agent.yaml', '**/*.agent.yaml'] };
    const { tests, controller } = start();
    await tests.discover();
    assert.deepEqual(state.watchers.map((w) => w.pattern), ['**/agent.yaml', '**/*.agent.yaml']);
    const other = join(suiteDir, 'other.agent.yaml');
    state.watchers[1].created.fire({ fsPath: other, toString: () => `file://${other}` } as never);
    await until(() => controller.items.get(`file://${other}`), 'the new suite');
    state.watchers[0].deleted.fire({ fsPath: agent, toString: () => `file://${agent}` } as never);
    assert.deepEqual(tree(controller.items).map((row) => (row as unknown[])[0]), ['other.agent.yaml']);
    tests.dispose();
    assert.deepEqual(state.watchers.map((w) => w.disposed), [true, true]);
  });

  it('offers runs only in a trusted workspace, and replay only with a recording', async () => {
    state.isTrusted = false;
    const { tests, controller } = start();
    await tests.discover();
    assert.equal(controller.profiles.length, 0);
    state.isTrusted = true;
    events.grantTrust.fire();
    assert.deepEqual(controller.profiles.map((p) => [p.label, p.isDefault]), [['Run', true], ['Record', false]]);
    writeFileSync(join(suiteDir, 'replay.jsonl'), '');
    await tests.discover();
    assert.deepEqual(controller.profiles.map((p) => p.label), ['Run', 'Record', 'Run with replay']);
    tests.dispose();
  });

  it('runs a case with replay and reports each turn, the failures at their lines with the diff', async () => {
    writeFileSync(join(suiteDir, 'replay.jsonl'), '');
    // The program stands for holodeck-lsp: it prints a real run's events, whatever its arguments.
    const script = `process.stdout.write(require('fs').readFileSync(${JSON.stringify(FAILED_TURN)}))`;
    state.configuration.holodeck = { 'server.command': [process.execPath, '-e', script] };
    const { tests, controller } = start();
    await tests.discover();
    const file = controller.items.get(`file://${agent}`)!;
    const caseItem = file.children.get(itemId({ uri: file.id, caseIndex: 0 }))!;
    const replay = controller.profiles.find((p) => p.label === 'Run with replay')!;
    const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };
    await replay.runHandler({ include: [caseItem], exclude: [] }, token);

    assert.ok(
      log.lines.includes(`Running ${process.execPath} -e ${script} run ${agent} --events - -q --case 0 --replay ${join(suiteDir, 'replay.jsonl')}`),
      log.lines.join('\n'),
    );
    const [run] = controller.runs;
    const name = (id: string): string => id.slice(id.lastIndexOf('#') + 1).replace('.', '/');
    const summary = run.calls.map(([method, id, detail]) => {
      if (method !== 'failed') {
        return [method, name(id)];
      }
      const { messages } = detail as { messages: { message: string; location?: { range: { start: { line: number } } }; expectedOutput?: string; actualOutput?: string }[] };
      return [method, name(id), messages.map((m) => [m.message, m.location?.range.start.line, m.expectedOutput, m.actualOutput])];
    });
    assert.deepEqual(summary, [
      ['enqueued', '0'],
      ['enqueued', '0/0'],
      ['enqueued', '0/1'],
      ['started', '0'],
      ['started', '0/0'],
      ['started', '0/1'],
      ['passed', '0/0'],
      ['failed', '0/1', [
        ["expected regex '2021', got '2020'", 17, undefined, undefined],
        ['metric numeric failed: score 0: not the ground truth within tolerance', 18, '190000', '181,001'],
      ]],
      // The case shows its turns' failures, at their lines.
      ['failed', '0', [
        ["expected regex '2021', got '2020'", 17, undefined, undefined],
        ['metric numeric failed: score 0: not the ground truth within tolerance', 18, '190000', '181,001'],
      ]],
    ]);
    assert.equal(run.ended, true);
    assert.match(run.output, /agent\.yaml: run finished: 0 passed, 1 failed/);
    assert.ok(log.lines.includes("test result: agent.yaml test_cases[0].turns[1] failed | line 18: expected regex '2021', got '2020' | line 19: metric numeric failed: score 0: not the ground truth within tolerance"), log.lines.join('\n'));
    tests.dispose();
  });

  it('runs nothing when the server gives no command line, and says so on each item', async () => {
    state.configuration.holodeck = { 'server.command': [process.execPath, '-e', 'process.exit(0)'] };
    const { tests, controller } = start();
    await tests.discover();
    const silent = server.request.bind(server);
    server.request = async <R,>(method: string, params: unknown): Promise<R | undefined> =>
      method === 'holodeck/runArguments' ? undefined : silent<R>(method, params);
    const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };
    await controller.profiles.find((p) => p.label === 'Run')!.runHandler({ include: undefined, exclude: [] }, token);
    const [run] = controller.runs;
    const name = (id: string): string => id.slice(id.lastIndexOf('#') + 1);
    assert.deepEqual(run.calls.map(([method, id]) => [method, name(id)]), [
      ['errored', '0'], ['errored', '0.0'], ['errored', '0.1'], ['errored', '1'],
    ]);
    assert.ok(!log.lines.some((line) => line.startsWith('Running ')), log.lines.join('\n'));
    tests.dispose();
  });

  it('compares with the baseline the settings name, and marks the turn that regressed', async () => {
    const script = `process.stdout.write(require('fs').readFileSync(${JSON.stringify(REGRESSED_TURN)}))`;
    state.configuration.holodeck = { 'server.command': [process.execPath, '-e', script], 'run.baseline': 'ci/main.json' };
    const { tests, controller } = start();
    await tests.discover();
    const file = controller.items.get(`file://${agent}`)!;
    const caseItem = file.children.get(itemId({ uri: file.id, caseIndex: 0 }))!;
    const runProfile = controller.profiles.find((p) => p.label === 'Run')!;
    const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };
    await runProfile.runHandler({ include: [caseItem], exclude: [] }, token);

    const baseline = join(suiteDir, 'ci', 'main.json');
    assert.ok(log.lines.includes(`Running ${process.execPath} -e ${script} run ${agent} --events - -q --case 0 --baseline ${baseline}`), log.lines.join('\n'));
    const [run] = controller.runs;
    const failed = run.calls.filter(([method]) => method === 'failed');
    const first = (detail: unknown): [string, number | undefined] => {
      const [message] = (detail as { messages: { message: string; location?: { range: { start: { line: number } } } }[] }).messages;
      return [message.message, message.location?.range.start.line];
    };
    // The turn's first message says it regressed, at the turn; the case's too.
    assert.deepEqual(failed.map(([, , detail]) => first(detail)), [
      ['Regressed: it passed in the baseline (passed -> failed)', 16],
      ['Regressed: it passed in the baseline (passed -> failed)', 16],
    ]);
    assert.ok(
      log.lines.some((line) => line.startsWith('test result: agent.yaml test_cases[0].turns[1] regressed | line 17: Regressed: it passed in the baseline')),
      log.lines.join('\n'),
    );
    assert.ok(log.lines.some((line) => line.startsWith('test result: agent.yaml test_cases[0] regressed')), log.lines.join('\n'));
    tests.dispose();
  });

  it('stops on cancel as Ctrl-C does: what finished keeps its result, the rest is skipped', async () => {
    // Stands for a run that finishes case 1 (single-turn: its turn's failure is the case's),
    // then waits; on SIGINT it reports the interruption as the runner does.
    const failures = [{ path: 'test_cases[1].ground_truth', message: 'metric equality failed: score 0', expected: '7', actual: '8' }];
    const events = [
      { event: 'run_started', cases: [{ case: 0, multi_turn: true, turns: [{ turn: 0 }, { turn: 1 }] }, { case: 1, multi_turn: false, turns: [{ turn: 0 }] }] },
      { event: 'case_started', case: 1 },
      { event: 'metric', case: 1, turn: 0, path: 'evaluations.metrics[0]', name: 'equality', kind: 'standard', score: 0, threshold: null, passed: false, error: null, reasoning: null, ground_truth_path: 'test_cases[1].ground_truth', expected: '7', actual: '8' },
      { event: 'turn_finished', case: 1, turn: 0, path: 'test_cases[1]', passed: false, skipped: false, duration_ms: 3, errors: [], failures },
      { event: 'case_finished', case: 1, path: 'test_cases[1]', passed: false, duration_ms: 4, errors: [], failures },
      { event: 'case_started', case: 0 },
    ].map((e) => JSON.stringify(e)).join('\n');
    const interrupted = JSON.stringify({ event: 'run_interrupted', reason: 'SIGINT', summary: { passed: 0, failed: 1 }, exit_code: 130 });
    const script = `process.on('SIGINT', () => { console.log(${JSON.stringify(interrupted)}); process.exit(130); }); console.log(${JSON.stringify(events)}); setInterval(() => {}, 1000);`;
    state.configuration.holodeck = { 'server.command': [process.execPath, '-e', script] };
    const { tests, controller } = start();
    await tests.discover();
    const listeners: (() => void)[] = [];
    const token = {
      isCancellationRequested: false,
      onCancellationRequested: (listener: () => void) => (listeners.push(listener), { dispose() {} }),
    };
    const running = controller.profiles.find((p) => p.label === 'Run')!.runHandler({ include: undefined, exclude: [] }, token);
    const run = await until(() => controller.runs[0], 'the run');
    await until(() => (run.calls.some(([method, id]) => method === 'started' && id.endsWith('#0')) ? true : undefined), 'case 0 to start');
    token.isCancellationRequested = true;
    listeners.forEach((listener) => listener());
    await running;

    const name = (id: string): string => id.slice(id.lastIndexOf('#') + 1);
    const results = run.calls.filter(([method]) => method !== 'enqueued' && method !== 'started');
    assert.deepEqual(
      results.map(([method, id, detail]) => [method, name(id), ...(method === 'failed' ? [(detail as { messages: { message: string; location?: { range: { start: { line: number } } }; expectedOutput?: string }[] }).messages.map((m) => [m.message, m.location?.range.start.line, m.expectedOutput])] : [])]),
      [
        ['failed', '1', [['metric equality failed: score 0', 18, '7']]],
        ['skipped', '0'],
        ['skipped', '0.0'],
        ['skipped', '0.1'],
      ],
    );
    assert.match(run.output, /run interrupted \(SIGINT\): 0 passed, 1 failed/);
    tests.dispose();
  });
});
