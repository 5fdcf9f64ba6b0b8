import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { SerialRestarter } from '../../src/restart';

/** A restart that finishes only when the test says so, recording what overlapped. */
function controllableRestart() {
  const log: string[] = [];
  const finishers: (() => void)[] = [];
  let active = 0;
  let maxActive = 0;
  const restart = (): Promise<void> => {
    active += 1;
    maxActive = Math.max(maxActive, active);
    log.push(`start ${log.filter((line) => line.startsWith('start')).length + 1}`);
    return new Promise((resolve) => {
      finishers.push(() => {
        active -= 1;
        log.push('end');
        resolve();
      });
    });
  };
  return { restart, log, finishers, maxActive: () => maxActive };
}

/** Lets queued promise callbacks run (no timers involved). */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i += 1) {
    await Promise.resolve();
  }
}

describe('serialized restarts', () => {
  it('runs one restart at a time and folds a burst of requests into one follow-up', async () => {
    const fake = controllableRestart();
    const restarter = new SerialRestarter(fake.restart);
    const first = restarter.request();
    const second = restarter.request();
    const third = restarter.request();
    await settle();
    assert.deepEqual(fake.log, ['start 1']);

    fake.finishers[0]();
    await first;
    await settle();
    assert.deepEqual(fake.log, ['start 1', 'end', 'start 2']);

    fake.finishers[1]();
    await Promise.all([second, third]);
    assert.deepEqual(fake.log, ['start 1', 'end', 'start 2', 'end']);
    assert.equal(fake.maxActive(), 1);
  });

  it('tells when every requested restart has finished', async () => {
    const fake = controllableRestart();
    const restarter = new SerialRestarter(fake.restart);
    await restarter.settled();
    void restarter.request();
    void restarter.request();
    let settled = false;
    const waiting = restarter.settled().then(() => (settled = true));
    await settle();
    fake.finishers[0]();
    await settle();
    assert.equal(settled, false, 'settled while the follow-up restart was still to run');
    fake.finishers[1]();
    await waiting;
    assert.deepEqual(fake.log, ['start 1', 'end', 'start 2', 'end']);
  });

  it('goes on after a restart that failed', async () => {
    let calls = 0;
    const restarter = new SerialRestarter(async () => {
      calls += 1;
      if (calls === 1) {
        throw new Error('server crashed');
      }
    });
    const failed = restarter.request();
    const next = restarter.request();
    await assert.rejects(failed, /server crashed/);
    await next;
    await restarter.request();
    assert.equal(calls, 3);
  });
});
