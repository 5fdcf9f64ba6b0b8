// The Testing view's controller: suites found by `holodeck.files.include`, their cases and turns
// asked of the server and refreshed as files are opened and edited, and the run profiles (Run,
// Run with replay, Record), offered only in a trusted workspace since a run executes its tools
// and graders.

import * as fs from 'node:fs';

import * as vscode from 'vscode';

import { chooseServer } from '../bundled';
import { currentSettings, discoveryContext } from '../host';
import { resolveServerCommand } from '../serverCommand';
import { documentSelector } from '../selector';
import { jobsFor, runJobs, withoutExcluded, type RunDeps } from './execute';
import { fillSuite } from './items';
import { FIELD_LOCATIONS, RUN_ARGUMENTS, TEST_ITEMS, type RunArguments, type RunMode, type ServerLocation, type SuiteItems } from './protocol';

export const CONTROLLER_ID = 'holodeck';
const REFRESH_DELAY_MS = 300;

/** What the controller asks of the running language server. */
export interface ServerRequests {
  request<R>(method: string, params: unknown): Promise<R | undefined>;
}

export class SuiteTests implements vscode.Disposable {
  readonly controller: vscode.TestController;
  private profiles: vscode.TestRunProfile[] = [];
  private replayProfile: vscode.TestRunProfile | undefined;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly disposables: vscode.Disposable[] = [];
  private watchers: vscode.FileSystemWatcher[] = [];
  /** Each suite whose cases are in its `test_cases_file`: that file's URI. */
  private readonly casesFiles = new Map<string, string>();
  /** Each suite's recording, as the server resolves it. */
  private readonly recordings = new Map<string, string>();

  constructor(
    private readonly server: ServerRequests,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.controller = vscode.tests.createTestController(CONTROLLER_ID, 'HoloDeck');
    this.controller.resolveHandler = async (item) => {
      if (item === undefined) {
        await this.discover();
      } else {
        await this.refresh(item.uri ?? vscode.Uri.parse(item.id));
      }
    };
    this.controller.refreshHandler = () => this.discover();
    const later = (document: vscode.TextDocument): void => this.refreshLater(document);
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument(later),
      vscode.workspace.onDidChangeTextDocument((event) => later(event.document)),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.syncProfiles()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('holodeck.files.include')) {
          this.watchIncluded();
        }
        if (event.affectsConfiguration('holodeck.run') || event.affectsConfiguration('holodeck.files.include')) {
          void this.discover();
        }
      }),
    );
    this.watchIncluded();
    this.syncProfiles();
  }

  dispose(): void {
    this.watchers.forEach((watcher) => watcher.dispose());
    this.timers.forEach((timer) => clearTimeout(timer));
    this.disposables.forEach((d) => d.dispose());
    this.profiles.forEach((p) => p.dispose());
    this.replayProfile?.dispose();
    this.controller.dispose();
  }

  /** Every suite matching `holodeck.files.include`, with its cases and turns. */
  async discover(): Promise<void> {
    const { settings } = currentSettings();
    const found = await Promise.all(
      settings.include.map((pattern) => vscode.workspace.findFiles(pattern, '**/node_modules/**')),
    );
    const uris = new Map(found.flat().map((uri) => [uri.toString(), uri]));
    this.controller.items.forEach((item) => {
      if (!uris.has(item.id)) {
        this.controller.items.delete(item.id);
      }
    });
    await Promise.all([...uris.values()].map((uri) => this.refresh(uri)));
    this.syncProfiles();
  }

  /** Asks the server for the suite's items; keeps what is shown when it cannot say. */
  async refresh(uri: vscode.Uri): Promise<void> {
    const params = { textDocument: { uri: uri.toString() }, recording: this.recordingSetting(uri) };
    const suite = await this.server.request<SuiteItems | null>(TEST_ITEMS, params);
    if (suite === undefined || suite === null) {
      return;
    }
    const id = uri.toString();
    this.recordings.set(id, suite.recording);
    if (suite.uri === id) {
      this.casesFiles.delete(id);
    } else {
      this.casesFiles.set(id, suite.uri);
    }
    if (suite.cases.length === 0) {
      this.controller.items.delete(id);
      this.recordings.delete(id);
      return;
    }
    let file = this.controller.items.get(id);
    if (file === undefined) {
      file = this.controller.createTestItem(id, vscode.workspace.asRelativePath(uri), uri);
      this.controller.items.add(file);
    }
    fillSuite(this.controller, file, suite);
  }

  private refreshLater(document: vscode.TextDocument): void {
    // An edit of a suite's `test_cases_file` is an edit of the suite.
    for (const [suite, cases] of this.casesFiles) {
      if (cases === document.uri.toString()) {
        this.refreshSoon(vscode.Uri.parse(suite));
      }
    }
    const { settings } = currentSettings();
    if (document.uri.scheme !== 'file' || vscode.languages.match(documentSelector(settings.include), document) === 0) {
      return;
    }
    this.refreshSoon(document.uri);
  }

  /** Suites created, changed or deleted on disk (a checkout, another tool); open ones follow edits. */
  private watchIncluded(): void {
    this.watchers.forEach((watcher) => watcher.dispose());
    this.watchers = currentSettings().settings.include.map((pattern) => {
      const watcher = vscode.workspace.createFileSystemWatcher(pattern);
      const changed = (uri: vscode.Uri): void => {
        if (!vscode.workspace.textDocuments.some((doc) => doc.uri.toString() === uri.toString())) {
          this.refreshSoon(uri);
        }
      };
      watcher.onDidCreate(changed);
      watcher.onDidChange(changed);
      watcher.onDidDelete((uri) => this.controller.items.delete(uri.toString()));
      return watcher;
    });
  }

  private refreshSoon(uri: vscode.Uri): void {
    const id = uri.toString();
    clearTimeout(this.timers.get(id));
    this.timers.set(
      id,
      setTimeout(() => {
        this.timers.delete(id);
        void this.refresh(uri).then(() => this.syncProfiles());
      }, REFRESH_DELAY_MS),
    );
  }

  /** Run and Record in a trusted workspace; Run with replay also when there is a recording. */
  syncProfiles(): void {
    if (!vscode.workspace.isTrusted) {
      return;
    }
    if (this.profiles.length === 0) {
      const kind = vscode.TestRunProfileKind.Run;
      this.profiles = [
        this.controller.createRunProfile('Run', kind, (request, token) => this.run(request, token, 'live'), true),
        this.controller.createRunProfile('Record', kind, (request, token) => this.run(request, token, 'record'), false),
      ];
    }
    const wanted = this.hasRecording();
    if (wanted && this.replayProfile === undefined) {
      this.replayProfile = this.controller.createRunProfile(
        'Run with replay',
        vscode.TestRunProfileKind.Run,
        (request, token) => this.run(request, token, 'replay'),
        false,
      );
    } else if (!wanted && this.replayProfile !== undefined) {
      this.replayProfile.dispose();
      this.replayProfile = undefined;
    }
  }

  private recordingSetting(scope?: vscode.Uri): string {
    return currentSettings(scope).settings.runReplay;
  }

  /** Whether a listed suite has its recording. */
  private hasRecording(): boolean {
    let found = false;
    this.controller.items.forEach((file) => {
      const recording = this.recordings.get(file.id);
      found ||= recording !== undefined && fs.existsSync(recording);
    });
    return found;
  }

  private async run(request: vscode.TestRunRequest, token: vscode.CancellationToken, mode: RunMode): Promise<void> {
    const chosen: vscode.TestItem[] = [];
    if (request.include === undefined) {
      this.controller.items.forEach((item) => chosen.push(item));
    } else {
      chosen.push(...request.include);
    }
    const excluded = new Set((request.exclude ?? []).map((item) => item.id));
    const files = (uri: string): vscode.TestItem | undefined => this.controller.items.get(uri);
    const jobs = jobsFor(withoutExcluded(chosen, excluded), files, mode);
    const run = this.controller.createTestRun(request);
    try {
      await runJobs(run, jobs, mode, token, this.deps());
    } finally {
      run.end();
    }
  }

  private deps(): RunDeps {
    return {
      // The language server's own program (or bundled copy on its Python), given `run` for `serve`.
      program: async () => {
        const { settings } = currentSettings();
        const { command } = await chooseServer({ ...settings, serverArgs: [] }, await discoveryContext());
        if (command === undefined) {
          return undefined;
        }
        const bundledPython = command.origin === 'bundled' ? command.command : undefined;
        return { command: command.command, args: command.args, bundledPython };
      },
      // For a suite that needs an extra the bundle lacks: the environment's own holodeck-lsp.
      environmentProgram: async () => resolveServerCommand([], [], await discoveryContext()),
      fieldLocations: (uri, paths) =>
        this.server.request<(ServerLocation | null)[]>(FIELD_LOCATIONS, { textDocument: { uri }, paths }),
      runArguments: (agentFile, selection, mode) =>
        this.server.request<RunArguments>(RUN_ARGUMENTS, {
          textDocument: { uri: agentFile.toString() },
          mode,
          case: selection.caseIndex,
          upToTurn: selection.upToTurn,
          recording: this.recordingSetting(agentFile),
          baseline: currentSettings(agentFile).settings.runBaseline,
        }),
      log: this.log,
    };
  }
}
