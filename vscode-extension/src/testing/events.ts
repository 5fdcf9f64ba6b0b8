// What the lines of `holodeck-lsp run --events -` mean for the Testing view (docs/run-events.md):
// which case or turn started, passed, failed (or regressed, against `--baseline`) or was skipped,
// and each failure's message with the field path it is shown at. Pure: no vscode, no process.

/** A test case, or one of its turns (a single-turn case has only turn 0, at the case's path). */
export interface Target {
  caseIndex: number;
  turn?: number;
}

export interface Failure {
  message: string;
  /** The field path the message belongs at (`test_cases[0].turns[1].ground_truth`). */
  path: string;
  /** Set for a compared metric (equality, numeric): shown as a diff. */
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

const DIFFED_METRICS = new Set(['equality', 'numeric']);

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
  /** Failures of each turn so far, by "case/turn", until its `turn_finished`. */
  private readonly pending = new Map<string, Event[]>();

  push(event: Event): Update[] {
    switch (event.event) {
      case 'run_started':
        return [{ kind: 'planned', targets: planned(event.cases) }];
      case 'case_started':
        return [{ kind: 'started', target: { caseIndex: num(event.case) } }];
      case 'assertion':
      case 'metric':
        if (event.passed === false) {
          const key = `${num(event.case)}/${num(event.turn)}`;
          this.pending.set(key, [...(this.pending.get(key) ?? []), event]);
        }
        return [];
      case 'turn_finished':
        return [this.turnFinished(event)];
      case 'case_finished': {
        const target = { caseIndex: num(event.case) };
        if (event.passed === true) {
          return [{ kind: 'passed', target, durationMs: num(event.duration_ms) }];
        }
        const errors = Array.isArray(event.errors) ? event.errors.map(text) : [];
        const message = errors.length > 0 ? errors.join('\n') : `${text(event.label)} failed`;
        const failed: Update = { kind: 'failed', target, durationMs: num(event.duration_ms), failures: [{ message, path: text(event.path) }] };
        return [regressed(event) ? { ...failed, regressed: true } : failed];
      }
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

  private turnFinished(event: Event): Update {
    const target = { caseIndex: num(event.case), turn: num(event.turn) };
    const key = `${target.caseIndex}/${target.turn}`;
    const found = this.pending.get(key) ?? [];
    this.pending.delete(key);
    if (event.skipped === true) {
      return { kind: 'skipped', target };
    }
    const durationMs = num(event.duration_ms);
    if (event.passed === true) {
      return { kind: 'passed', target, durationMs };
    }
    const failures = failuresOf(found);
    const errors = Array.isArray(event.errors) ? event.errors.map(text) : [];
    // A turn can fail with no failed assertion or metric (the model call failed, a tool raised).
    if (failures.length === 0) {
      const why = errors.length > 0 ? errors.join('\n') : 'the turn failed';
      failures.push({ message: why, path: `${text(event.path)}.input` });
    }
    if (!regressed(event)) {
      return { kind: 'failed', target, durationMs, failures };
    }
    const was = text((event.baseline as Event).text);
    const regression = { message: `Regressed: it passed in the baseline (${was})`, path: `${text(event.path)}.input` };
    return { kind: 'failed', target, durationMs, failures: [regression, ...failures], regressed: true };
  }
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

/**
 * The failures of a turn, each at its line: a failed argument at `args.NAME` (its expected tool
 * then says nothing more), a failed tool assertion at the expected tool, a compared metric at
 * the turn's `ground_truth` with expected and actual, another metric where it is configured.
 */
export function failuresOf(events: readonly Event[]): Failure[] {
  const failedArgs = events
    .filter((e) => e.event === 'assertion' && e.kind === 'arg')
    .map((e) => text(e.path));
  const out: Failure[] = [];
  for (const event of events) {
    if (event.event === 'assertion') {
      const path = text(event.path);
      if (failedArgs.some((arg) => arg.startsWith(`${path}.args.`))) {
        continue;
      }
      out.push({ message: text(event.message) || 'assertion failed', path });
    } else if (event.event === 'metric') {
      out.push(metricFailure(event));
    }
  }
  return out;
}

function metricFailure(event: Event): Failure {
  const name = text(event.name);
  const why = text(event.error) || text(event.reasoning);
  const score = `score ${num(event.score)}` + (event.threshold === null || event.threshold === undefined ? '' : ` < ${num(event.threshold)}`);
  const message = `metric ${name} failed: ${why || score}` + (why ? ` (${score})` : '');
  const truth = text(event.ground_truth_path);
  if (truth === '') {
    return { message, path: text(event.path) };
  }
  const failure: Failure = { message, path: truth };
  if (DIFFED_METRICS.has(name)) {
    failure.expected = text(event.expected);
    failure.actual = text(event.actual);
  } else {
    failure.message += `\nexpected: ${text(event.expected)}\nactual: ${text(event.actual)}`;
  }
  return failure;
}
