// The Testing view in code-server, driven as a user does: the view opened from the Command
// Palette, a suite's row right-clicked, "Execute Using Profile..." -> "Run with replay". The
// results are read from the HoloDeck output channel's log (one `test result:` line per case and
// turn), the view's icons and the failure's peek in the editor (opened by "Test: Peek Output",
// standing under the ground_truth line); a screenshot is kept.

import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { DEADLINE_MS, type CodeServer } from '../support/codeServer';
import { REPO_DIR } from '../support/server';

/** The playwright-core calls these steps make. */
export interface Locator {
  first(): Locator;
  nth(index: number): Locator;
  filter(options: { hasText: RegExp | string }): Locator;
  locator(selector: string): Locator;
  waitFor(options: { state: 'visible' | 'attached'; timeout: number }): Promise<void>;
  click(options?: { button?: 'right' | 'left'; timeout?: number }): Promise<void>;
  hover(options?: { timeout?: number }): Promise<void>;
  count(): Promise<number>;
  innerText(): Promise<string>;
  getAttribute(name: string, options?: { timeout?: number }): Promise<string | null>;
  isVisible(): Promise<boolean>;
  boundingBox(options?: { timeout: number }): Promise<{ x: number; y: number; width: number; height: number } | null>;
}
export interface Page {
  locator(selector: string): Locator;
  keyboard: { press(keys: string): Promise<void>; type(text: string): Promise<void> };
  screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown>;
}

export const EXAMPLE = 'convfinqa';
export const BROKEN = 'convfinqa-broken';
export const WRONG_TRUTH = 'ground_truth: "190000"';

/** The convfinqa example with its recording, and a copy whose turn 1 has a wrong ground truth. */
export function prepareSuites(workspace: string): { brokenLine: number } {
  const source = join(REPO_DIR, 'examples', EXAMPLE);
  cpSync(source, join(workspace, EXAMPLE), { recursive: true });
  cpSync(source, join(workspace, BROKEN), { recursive: true });
  const agent = join(workspace, BROKEN, 'agent.yaml');
  const text = readFileSync(agent, 'utf8').replace('ground_truth: "181001"', WRONG_TRUTH);
  writeFileSync(agent, text);
  return { brokenLine: text.split('\n').findIndex((line) => line.includes(WRONG_TRUTH)) + 1 };
}

/** The `test result:` lines the extension logged so far (one per case and turn). */
function resultLines(session: CodeServer): string[] {
  const marker = 'test result: ';
  return session
    .holodeckLog()
    .split('\n')
    .filter((line) => line.includes(marker))
    .map((line) => line.slice(line.indexOf(marker) + marker.length));
}

/** Polls `check` until it returns a value, for at most `timeoutMs`; no fixed sleeps. */
export async function until<T>(check: () => T | undefined | Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined) {
      return found;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function runCommand(page: Page, title: string, timeout: number): Promise<void> {
  await page.keyboard.press('F1');
  // Typed only once the palette has the focus, and run only once the title is the chosen row.
  await page.locator('.quick-input-widget input:focus').waitFor({ state: 'visible', timeout });
  await page.keyboard.type(title);
  await page.locator('.quick-input-list .monaco-list-row.focused').filter({ hasText: title }).waitFor({ state: 'visible', timeout });
  await page.keyboard.press('Enter');
}

/** The rows of the Test Explorer, as text. */
export function explorerRows(page: Page): Locator {
  return page.locator('.test-explorer .monaco-list-row');
}

/** Expand or collapse a row of the Test Explorer (a click toggles it; nothing if already so). */
async function setExpanded(page: Page, text: string, expanded: boolean, timeout: number): Promise<void> {
  const row = explorerRows(page).filter({ hasText: text }).first();
  const wanted = String(expanded);
  await until(
    async () => {
      const state = await row.getAttribute('aria-expanded', { timeout });
      if (state === wanted) {
        return true;
      }
      await row.click({ timeout });
      // The toggle shows within a moment; checked again before any second click.
      await until(async () => ((await row.getAttribute('aria-expanded')) === wanted ? true : undefined), 3_000, text).catch(
        () => undefined,
      );
      return undefined;
    },
    timeout,
    `the row ${text} ${expanded ? 'expanded' : 'collapsed'}`,
  );
}

/** Right-click the suite's row, "Execute Using Profile...", pick the profile. */
export async function runWithProfile(page: Page, suite: string, profile: string, timeout: number): Promise<void> {
  await explorerRows(page).filter({ hasText: suite }).first().click({ button: 'right', timeout });
  // The menu takes the keyboard: the item is chosen as a user pointing at it and pressing Enter.
  await page.locator('.context-view .action-item').filter({ hasText: 'Execute Using Profile' }).first().hover({ timeout });
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: profile }).first().click({ timeout });
}

const SUITE = `${EXAMPLE}/agent.yaml`;
const BROKEN_SUITE = `${BROKEN}/agent.yaml`;
const CASES = ['operating cash flow change', 'capex share of revenue', 'net income growth'];
const TURNS = [4, 3, 3];

/** Every case and turn of the example, as the result lines name them. */
function expectedItems(): string[] {
  return CASES.flatMap((_, i) => [
    `test_cases[${i}]`,
    ...Array.from({ length: TURNS[i] }, (_unused, k) => `test_cases[${i}].turns[${k}]`),
  ]).sort();
}

/** The last result of each item of a suite: `{item: "passed" | "failed | line N: ..."}`. */
function resultsOf(session: CodeServer, suite: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of resultLines(session)) {
    if (line.startsWith(`${suite} `)) {
      const [item, ...rest] = line.slice(suite.length + 1).split(' ');
      out.set(item, rest.join(' '));
    }
  }
  return out;
}

async function runAndCollect(session: CodeServer, suite: string, timeout: number): Promise<Map<string, string>> {
  const page = session.page as unknown as Page;
  const before = resultLines(session).length;
  await runWithProfile(page, suite, 'Run with replay', timeout);
  const wanted = expectedItems().length;
  return until(
    () => {
      const fresh = resultLines(session).slice(before).filter((line) => line.startsWith(`${suite} `));
      return fresh.length >= wanted ? resultsOf(session, suite) : undefined;
    },
    timeout,
    `${wanted} results of ${suite}`,
  );
}

/** The whole scenario; a screenshot is saved to `screenshot` either way. */
export async function checkTestingView(session: CodeServer, brokenLine: number, screenshot: string): Promise<void> {
  try {
    await scenario(session, brokenLine, DEADLINE_MS);
  } catch (error) {
    session.printLogs();
    throw error;
  } finally {
    mkdirSync(dirname(screenshot), { recursive: true });
    await session.page.screenshot({ path: screenshot });
  }
}

async function scenario(session: CodeServer, brokenLine: number, timeout: number): Promise<void> {
  const page = session.page as unknown as Page;
  await runCommand(page, 'Testing: Focus on Test Explorer View', timeout);
  // The suites, then (expanded by a click) the example's cases and its first case's turns.
  for (const suite of [SUITE, BROKEN_SUITE]) {
    await explorerRows(page).filter({ hasText: suite }).first().waitFor({ state: 'visible', timeout });
  }
  await explorerRows(page).filter({ hasText: SUITE }).first().click({ timeout });
  for (const name of CASES) {
    await explorerRows(page).filter({ hasText: name }).first().waitFor({ state: 'visible', timeout });
  }
  await explorerRows(page).filter({ hasText: CASES[0] }).first().click({ timeout });
  for (let k = 0; k < TURNS[0]; k += 1) {
    await explorerRows(page).filter({ hasText: `turns[${k}]` }).first().waitFor({ state: 'visible', timeout });
  }

  const passed = await runAndCollect(session, SUITE, timeout);
  assert.deepEqual([...passed.keys()].sort(), expectedItems());
  assert.deepEqual([...passed.entries()].filter(([, state]) => state !== 'passed'), []);
  await page.locator('.test-explorer .codicon-testing-passed-icon').first().waitFor({ state: 'visible', timeout });

  const broken = await runAndCollect(session, BROKEN_SUITE, timeout);
  const failed = [...broken.entries()].filter(([, state]) => state !== 'passed').sort();
  assert.deepEqual(failed, [
    ['test_cases[0]', `failed | line ${brokenLine}: metric numeric failed: score 0: not the ground truth within tolerance`],
    ['test_cases[0].turns[1]', `failed | line ${brokenLine}: metric numeric failed: score 0: not the ground truth within tolerance`],
  ]);
  await page.locator('.test-explorer .codicon-testing-failed-icon').first().waitFor({ state: 'visible', timeout });

  // The failed turn's row, found with only the broken suite expanded: a click toggles a row, and
  // VS Code may have expanded a failed item itself, so each row is set, not toggled.
  await setExpanded(page, SUITE, false, timeout);
  await setExpanded(page, BROKEN_SUITE, true, timeout);
  await setExpanded(page, CASES[0], true, timeout);
  const failedTurn = explorerRows(page).filter({ hasText: 'turns[1]' }).first();
  await failedTurn.locator('.codicon-testing-failed-icon').waitFor({ state: 'visible', timeout });

  // The failure's peek, by the command "Test: Peek Output" (it opens the latest run's failure and
  // closes nothing; "Go to Test" on the row closes every peek, so a peek opened by the row's click
  // survived only if it came after the key). It shows expected and actual under the ground_truth line.
  await runCommand(page, 'Test: Peek Output', timeout);
  const peek = page
    .locator('.peekview-widget')
    .filter({ hasText: 'metric numeric failed: score 0' })
    .filter({ hasText: '190000' })
    .filter({ hasText: '181,001' })
    .first();
  await peek.waitFor({ state: 'visible', timeout });
  const line = page.locator('.view-line').filter({ hasText: /ground_truth:\s"190000"/ }).first();
  // The editor scrolls and lays the peek out after it shows: polled until it stands under the line.
  let seen = '';
  await until(
    async () => {
      const [lineBox, peekBox] = [await line.boundingBox({ timeout }), await peek.boundingBox({ timeout })];
      seen = `ground_truth line ${JSON.stringify(lineBox)}, peek ${JSON.stringify(peekBox)}`;
      const gap = lineBox && peekBox ? peekBox.y - (lineBox.y + lineBox.height) : -1;
      return lineBox && gap >= 0 && gap < lineBox.height ? true : undefined;
    },
    timeout,
    'the peek right under the ground_truth line',
  ).catch((error: Error) => {
    throw new Error(`${error.message} (${seen})`);
  });
}
