import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { baselineFor, recordingFor, runArguments } from '../../src/testing/runArgs';
import { runEvents, type Cancellation } from '../../src/testing/runProcess';

/** A cancellation token the test fires by hand. */
function token(): Cancellation & { cancel(): void } {
  const listeners: (() => void)[] = [];
  return {
    isCancellationRequested: false,
    onCancellationRequested(listener) {
      listeners.push(listener);
      return { dispose: () => listeners.splice(listeners.indexOf(listener), 1) };
    },
    cancel() {
      this.isCancellationRequested = true;
      [...listeners].forEach((listener) => listener());
    },
  };
}

/** A node child running `script`. */
function node(script: string) {
  return { command: process.execPath, args: ['-e', script], cwd: process.cwd() };
}

describe('the run child', () => {
  it('hands over stdout line by line, a line split across writes whole, the last one unterminated', async () => {
    const lines: string[] = [];
    const outcome = await runEvents(
      node(`process.stdout.write('{"a": 1}\\n{"b"'); setTimeout(() => { process.stdout.write(': 2}\\n{"c": 3}'); console.error('done'); process.exitCode = 1; }, 20);`),
      (line) => lines.push(line),
      token(),
    );
    assert.deepEqual(lines, ['{"a": 1}', '{"b": 2}', '{"c": 3}']);
    assert.deepEqual(outcome, { exitCode: 1, signal: null, stderr: 'done\n', cancelled: false });
  });

  it('stops on cancel as Ctrl-C does: the partial report is written before it exits', async () => {
    const lines: string[] = [];
    const cancel = token();
    const outcome = await runEvents(
      node(`process.on('SIGINT', () => { console.log('{"event": "run_interrupted"}'); process.exit(130); }); console.log('{"event": "run_started"}'); setInterval(() => {}, 1000);`),
      (line) => {
        lines.push(line);
        cancel.cancel();
      },
      cancel,
    );
    assert.deepEqual(lines, ['{"event": "run_started"}', '{"event": "run_interrupted"}']);
    assert.equal(outcome.exitCode, 130);
    assert.equal(outcome.cancelled, true);
  });

  it('kills a child that ignores Ctrl-C once the grace period is over', async () => {
    const cancel = token();
    const outcome = await runEvents(
      node(`process.on('SIGINT', () => {}); console.log('started'); setInterval(() => {}, 1000);`),
      () => cancel.cancel(),
      cancel,
      200,
    );
    assert.equal(outcome.signal, 'SIGKILL');
    assert.equal(outcome.cancelled, true);
  });

  it('says why when the program does not exist', async () => {
    const outcome = await runEvents({ command: '/nonexistent/holodeck-lsp', args: [], cwd: process.cwd() }, () => {}, token());
    assert.match(outcome.error ?? '', /ENOENT/);
  });
});

describe('the run arguments', () => {
  it('run the suite, a case, or a case up to a turn, live, replayed or recorded', () => {
    const agent = '/ws/suite/agent.yaml';
    const recording = recordingFor(agent, '');
    assert.equal(recording, '/ws/suite/replay.jsonl');
    assert.equal(recordingFor(agent, 'recordings/a.jsonl'), '/ws/suite/recordings/a.jsonl');
    assert.equal(recordingFor(agent, '/tmp/a.jsonl'), '/tmp/a.jsonl');
    assert.deepEqual(runArguments(agent, {}, 'live', recording), ['run', agent, '--events', '-', '-q']);
    assert.deepEqual(runArguments(agent, { caseIndex: 2 }, 'replay', recording), [
      'run', agent, '--events', '-', '-q', '--case', '2', '--replay', recording,
    ]);
    assert.deepEqual(runArguments(agent, { caseIndex: 0, upToTurn: 1 }, 'record', recording), [
      'run', agent, '--events', '-', '-q', '--case', '0', '--up-to-turn', '1', '--record', recording,
    ]);
  });

  it('compare with the baseline the settings name, beside the suite or absolute', () => {
    const agent = '/ws/suite/agent.yaml';
    assert.equal(baselineFor(agent, ' '), undefined);
    assert.equal(baselineFor(agent, 'ci/main.json'), '/ws/suite/ci/main.json');
    assert.equal(baselineFor(agent, '/reports/main.json'), '/reports/main.json');
    assert.deepEqual(runArguments(agent, { caseIndex: 1 }, 'live', recordingFor(agent, ''), '/reports/main.json'), [
      'run', agent, '--events', '-', '-q', '--case', '1', '--baseline', '/reports/main.json',
    ]);
  });
});
