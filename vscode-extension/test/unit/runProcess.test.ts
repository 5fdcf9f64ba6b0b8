import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

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
