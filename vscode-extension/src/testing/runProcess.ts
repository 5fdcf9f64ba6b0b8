// One `holodeck-lsp run ... --events -` child: its stdout handed over line by line as it comes,
// stopped on cancel as Ctrl-C stops it (SIGINT: the run writes its partial report and a
// `run_interrupted` event), killed if it has not ended within a bound.

import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';

export const STOP_GRACE_MS = 5_000;

export interface RunSpec {
  command: string;
  args: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
}

export interface RunOutcome {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** The last part of stderr, to explain a run that did not start. */
  stderr: string;
  cancelled: boolean;
  /** Set when the program could not be started at all. */
  error?: string;
}

/** What the test run's cancellation token offers, reduced to what we use. */
export interface Cancellation {
  isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

const STDERR_KEPT = 8_000;

export function runEvents(
  spec: RunSpec,
  onLine: (line: string) => void,
  token: Cancellation,
  graceMs = STOP_GRACE_MS,
): Promise<RunOutcome> {
  return new Promise((resolve) => {
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let cancelled = false;
    let killTimer: NodeJS.Timeout | undefined;
    const decoder = new StringDecoder('utf8');
    let partial = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (partial + decoder.write(chunk)).split('\n');
      partial = lines.pop() ?? '';
      lines.forEach(onLine);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
    });
    const stop = (): void => {
      if (cancelled || child.exitCode !== null || child.signalCode !== null) {
        return;
      }
      cancelled = true;
      child.kill('SIGINT');
      killTimer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    };
    const subscription = token.onCancellationRequested(stop);
    if (token.isCancellationRequested) {
      stop();
    }
    let settled = false;
    const finish = (outcome: RunOutcome): void => {
      if (settled) {
        return;
      }
      settled = true;
      clearTimeout(killTimer);
      subscription.dispose();
      resolve(outcome);
    };
    child.once('error', (error) => finish({ exitCode: null, signal: null, stderr, cancelled, error: error.message }));
    // 'close' comes after stdout has ended, so every line has been handed over.
    child.once('close', (exitCode, signal) => {
      const rest = partial + decoder.end();
      if (rest !== '') {
        onLine(rest);
      }
      finish({ exitCode, signal, stderr, cancelled });
    });
  });
}
