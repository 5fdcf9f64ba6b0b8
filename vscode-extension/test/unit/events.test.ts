import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { parseEvent, RunInterpreter, type Update } from '../../src/testing/events';
import { EXTENSION_DIR } from '../support/server';

// `run --case 0 --up-to-turn 1 --events -` of the convfinqa example with turn 1's ground truth
// and `year` regex made wrong, replayed from its recording.
const FAILED_TURN = join(EXTENSION_DIR, 'test', 'fixtures', 'events', 'failed-turn.jsonl');
// The same run with `--baseline` naming the report of the example before the change, which passed.
const REGRESSED_TURN = join(EXTENSION_DIR, 'test', 'fixtures', 'events', 'regressed-turn.jsonl');

function interpret(lines: string[]): Update[] {
  const interpreter = new RunInterpreter();
  return lines.flatMap((line) => {
    const event = parseEvent(line);
    return event === undefined ? [] : interpreter.push(event);
  });
}

describe('the run events, as the Testing view reads them', () => {
  it('marks each turn and the case, with each failure at its field and the numeric diff', () => {
    const lines = readFileSync(FAILED_TURN, 'utf8').split('\n');
    const updates = interpret(['not json: a stray print', ...lines]);
    const durations = (u: Update): Update => ('durationMs' in u ? { ...u, durationMs: 0 } : u);
    assert.deepEqual(updates.map(durations), [
      { kind: 'planned', targets: [{ caseIndex: 0 }, { caseIndex: 0, turn: 0 }, { caseIndex: 0, turn: 1 }] },
      { kind: 'started', target: { caseIndex: 0 } },
      { kind: 'passed', target: { caseIndex: 0, turn: 0 }, durationMs: 0 },
      {
        kind: 'failed',
        target: { caseIndex: 0, turn: 1 },
        durationMs: 0,
        failures: [
          // The failed argument says it at its line; its expected tool adds nothing.
          { message: "expected regex '2021', got '2020'", path: 'test_cases[0].turns[1].expected_tools[0].args.year' },
          {
            message: 'metric numeric failed: score 0: not the ground truth within tolerance',
            path: 'test_cases[0].turns[1].ground_truth',
            expected: '190000',
            actual: '181,001',
          },
        ],
      },
      // The case lists its turns' failures.
      {
        kind: 'failed',
        target: { caseIndex: 0 },
        durationMs: 0,
        failures: [
          { message: "expected regex '2021', got '2020'", path: 'test_cases[0].turns[1].expected_tools[0].args.year' },
          {
            message: 'metric numeric failed: score 0: not the ground truth within tolerance',
            path: 'test_cases[0].turns[1].ground_truth',
            expected: '190000',
            actual: '181,001',
          },
        ],
      },
      { kind: 'ended', exitCode: 1, interrupted: undefined, passed: 0, failed: 1 },
    ]);
  });

  it('takes each failure as the run lists it: its words, its place, a diff only for a comparison', () => {
    const metric = { path: 'evaluations.metrics[2]', message: 'metric answer format failed: The ratio is not a percentage.', expected: null, actual: null };
    const timeout = { path: 'test_cases[3].turns[0].input', message: 'timeout', expected: null, actual: null };
    const skipped = { path: 'test_cases[3]', message: '[turn 1] skipped: the session ended at turn 0: timeout', expected: null, actual: null };
    const updates = interpret([
      JSON.stringify({
        event: 'metric', case: 2, turn: 0, path: 'evaluations.metrics[2]', name: 'answer format', kind: 'geval',
        score: 0.4, threshold: 0.7, passed: false, error: null, reasoning: 'The ratio is not a percentage.',
        ground_truth_path: null, expected: null, actual: null,
      }),
      JSON.stringify({ event: 'turn_finished', case: 2, turn: 0, path: 'test_cases[2].turns[0]', passed: false, skipped: false, duration_ms: 12, errors: [], failures: [metric] }),
      JSON.stringify({ event: 'turn_finished', case: 3, turn: 0, path: 'test_cases[3].turns[0]', passed: false, skipped: false, duration_ms: 5, errors: ['timeout'], failures: [timeout] }),
      JSON.stringify({ event: 'turn_finished', case: 3, turn: 1, path: 'test_cases[3].turns[1]', passed: false, skipped: true, duration_ms: 0, errors: [], failures: [] }),
      JSON.stringify({ event: 'case_finished', case: 3, label: 'x', path: 'test_cases[3]', passed: false, duration_ms: 6, errors: [], failures: [timeout, skipped] }),
      JSON.stringify({ event: 'run_interrupted', reason: 'SIGINT', not_run: ['x'], summary: { passed: 1, failed: 1 }, exit_code: 130 }),
    ]);
    assert.deepEqual(updates, [
      {
        kind: 'failed',
        target: { caseIndex: 2, turn: 0 },
        durationMs: 12,
        failures: [{ message: 'metric answer format failed: The ratio is not a percentage.', path: 'evaluations.metrics[2]' }],
      },
      {
        kind: 'failed',
        target: { caseIndex: 3, turn: 0 },
        durationMs: 5,
        failures: [{ message: 'timeout', path: 'test_cases[3].turns[0].input' }],
      },
      { kind: 'skipped', target: { caseIndex: 3, turn: 1 } },
      {
        kind: 'failed',
        target: { caseIndex: 3 },
        durationMs: 6,
        failures: [
          { message: 'timeout', path: 'test_cases[3].turns[0].input' },
          { message: '[turn 1] skipped: the session ended at turn 0: timeout', path: 'test_cases[3]' },
        ],
      },
      { kind: 'ended', exitCode: 130, interrupted: 'SIGINT', passed: 1, failed: 1 },
    ]);
  });

  it('marks a turn and its case regressed when they passed in the baseline, the run saying so first', () => {
    const lines = readFileSync(REGRESSED_TURN, 'utf8').split('\n');
    const failed = interpret(lines).filter((u): u is Extract<Update, { kind: 'failed' }> => u.kind === 'failed');
    assert.deepEqual(
      failed.map((u) => [u.target, u.regressed, u.failures[0]]),
      [
        [
          { caseIndex: 0, turn: 1 },
          true,
          { message: 'Regressed: it passed in the baseline (passed -> failed)', path: 'test_cases[0].turns[1].input' },
        ],
        [
          { caseIndex: 0 },
          true,
          { message: 'Regressed: it passed in the baseline (passed -> failed)', path: 'test_cases[0].turns[1].input' },
        ],
      ],
    );
    // The turn's own failures follow, as without a baseline.
    assert.deepEqual(failed[0].failures.slice(1).map((f) => f.path), [
      'test_cases[0].turns[1].expected_tools[0].args.year',
      'test_cases[0].turns[1].ground_truth',
    ]);
  });
});
