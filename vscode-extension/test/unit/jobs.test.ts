// Which `run` invocations a Testing view request becomes.
import '../support/vscodeStub';

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type * as vscode from 'vscode';

import { jobsFor, withoutExcluded } from '../../src/testing/execute';
import { itemId, placeOf } from '../../src/testing/items';
import { FakeItem } from '../support/vscodeStub';

const A = 'file:///ws/a/agent.yaml';
const B = 'file:///ws/b/agent.yaml';
const files = new Map([A, B].map((uri) => [uri, new FakeItem(uri, uri, undefined)]));

function item(uri: string, caseIndex?: number, turn?: number): vscode.TestItem {
  return new FakeItem(itemId({ uri, caseIndex, turn }), 'x', undefined) as unknown as vscode.TestItem;
}

function jobs(items: vscode.TestItem[], mode: 'live' | 'replay' | 'record' = 'live'): [string, object][] {
  const found = jobsFor(items, (uri) => files.get(uri) as unknown as vscode.TestItem | undefined, mode);
  return found.map((job) => [job.file.id, job.selection]);
}

describe('the runs of a request', () => {
  it('runs a chosen suite whole, a chosen case, or a case up to its last chosen turn', () => {
    assert.deepEqual(jobs([item(A), item(B, 2, 0), item(B, 0, 1), item(B, 0, 3)]), [
      [A, {}],
      [B, { caseIndex: 0, upToTurn: 3 }],
      [B, { caseIndex: 2, upToTurn: 0 }],
    ]);
    assert.deepEqual(jobs([item(B, 1, 2), item(B, 1), item(B, 1, 4)]), [[B, { caseIndex: 1 }]]);
    assert.deepEqual(jobs([item(B, 1), item(B)]), [[B, {}]]);
  });

  it('runs what is left of a chosen suite or case when items inside it are excluded', () => {
    // Suite B with cases 0 and 1, each with turns 0..2.
    const suite = new FakeItem(B, 'b', undefined);
    for (const caseIndex of [0, 1]) {
      const one = new FakeItem(itemId({ uri: B, caseIndex }), 'case', undefined);
      for (const turn of [0, 1, 2]) {
        one.children.add(new FakeItem(itemId({ uri: B, caseIndex, turn }), 'turn', undefined));
      }
      suite.children.add(one);
    }
    const chosen = [suite as unknown as vscode.TestItem];
    const runs = (excluded: vscode.TestItem[]): [string, object][] =>
      jobs(withoutExcluded(chosen, new Set(excluded.map((e) => e.id))));
    assert.deepEqual(runs([]), [[B, {}]]);
    assert.deepEqual(runs([item(B, 1)]), [[B, { caseIndex: 0 }]]);
    // A conversation cannot skip a turn: excluding the last turn cuts the case before it.
    assert.deepEqual(runs([item(B, 0, 2)]), [
      [B, { caseIndex: 0, upToTurn: 1 }],
      [B, { caseIndex: 1 }],
    ]);
    assert.deepEqual(runs([item(B)]), []);
  });

  it('records whole suites only, so a recording never shrinks to one case', () => {
    assert.deepEqual(jobs([item(B, 1, 2)], 'record'), [[B, {}]]);
  });

  it('reads its item ids back, for URIs with a fragment-like part too', () => {
    const odd = 'file:///ws/c%23d/agent.yaml';
    assert.deepEqual(placeOf(itemId({ uri: odd, caseIndex: 3, turn: 1 })), { uri: odd, caseIndex: 3, turn: 1 });
    assert.deepEqual(placeOf(itemId({ uri: odd, caseIndex: 3 })), { uri: odd, caseIndex: 3, turn: undefined });
    assert.deepEqual(placeOf(odd), { uri: odd });
  });
});
