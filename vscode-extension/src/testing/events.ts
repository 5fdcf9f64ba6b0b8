// What the lines of `holodeck-lsp run --events -` mean for the Testing view (docs/run-events.md):
// which case or turn started, passed, failed (or regressed, against `--baseline`) or was skipped,
// and its failures as the run lists them, each with its words and the field path it is shown at
// (the runner decides both). Pure: no vscode, no process.

/** A test case, or one of its turns (a single-turn case has only turn 0, at the case's path). */
export interface Target {
  caseIndex: number;
  turn?: number;
}

export interface Failure {
  message: string;
  /** The field path the message belongs at (`test_cases[0].turns[1].ground_truth`). */
  path: string;
  /** Set for a failed comparison (the ground truth and the reply): shown as a diff. */
  expected?: string;
  actual?: string;
}

export type Update =
  | { kind: 'planned'; targets: Target[] }
  | { kind: 'started'; target: Target }
  | { kind: 'passed'; target: Target; durationMs: number }
  | { kind: 'skipped'; target: Target }
  | { kind: 'failed'; target: Target; durationMs: number; failures: Failure[]; regressed?: boolean }
  | { kind: 'ended'; exitCode: number; interrupted?: string; passed: number; failed: number };

type Event = Record<string, unknown>;

function text(value: unknown): string {
  if (value === null || value === undefined) {
    return '';
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function num(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}

/** Parses one line of the stream; undefined for a line that is not an event (a stray print). */
export function parseEvent(line: string): Event | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) {
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(trimmed);
    return typeof value === 'object' && value !== null && typeof (value as Event).event === 'string'
      ? (value as Event)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Follows one run's events; `push` returns what each one changes. */
export class RunInterpreter {
  push(event: Event): Update[] {
    switch (event.event) {
      case 'run_started':
        return [{ kind: 'planned', targets: planned(event.cases) }];
      case 'case_started':
        return [{ kind: 'started', target: { caseIndex: num(event.case) } }];
      case 'turn_finished': {
        const target = { caseIndex: num(event.case), turn: num(event.turn) };
        return [event.skipped === true ? { kind: 'skipped', target } : finished(target, event)];
      }
      case 'case_finished':
        return [finished({ caseIndex: num(event.case) }, event)];
      case 'run_finished':
      case 'run_interrupted': {
        const summary = (event.summary ?? {}) as Event;
        return [
          {
            kind: 'ended',
            exitCode: num(event.exit_code),
            interrupted: event.event === 'run_interrupted' ? text(event.reason) || 'interrupted' : undefined,
            passed: num(summary.passed),
            failed: num(summary.failed),
          },
        ];
      }
      default:
        return [];
    }
  }
}

function finished(target: Target, event: Event): Update {
  const durationMs = num(event.duration_ms);
  if (event.passed === true) {
    return { kind: 'passed', target, durationMs };
  }
  const failed: Update = { kind: 'failed', target, durationMs, failures: failuresOf(event.failures) };
  return regressed(event) ? { ...failed, regressed: true } : failed;
}

/** The turn or case passed in the baseline (`run --baseline`) and fails now. */
function regressed(event: Event): boolean {
  const baseline = event.baseline;
  return typeof baseline === 'object' && baseline !== null && (baseline as Event).change === 'regressed';
}

function planned(cases: unknown): Target[] {
  const out: Target[] = [];
  for (const item of Array.isArray(cases) ? (cases as Event[]) : []) {
    const caseIndex = num(item.case);
    out.push({ caseIndex });
    if (item.multi_turn === true && Array.isArray(item.turns)) {
      for (const turn of item.turns as Event[]) {
        out.push({ caseIndex, turn: num(turn.turn) });
      }
    }
  }
  return out;
}

/** The failures an event lists, as they are; a comparison keeps both sides for a diff. */
function failuresOf(listed: unknown): Failure[] {
  const out: Failure[] = [];
  for (const item of Array.isArray(listed) ? (listed as Event[]) : []) {
    const failure: Failure = { message: text(item.message), path: text(item.path) };
    if (typeof item.expected === 'string' && typeof item.actual === 'string') {
      failure.expected = item.expected;
      failure.actual = item.actual;
    }
    out.push(failure);
  }
  return out;
}
