// The running server: started, restarted (one at a time) and stopped here.

import * as vscode from 'vscode';
import { DidChangeConfigurationNotification, State, type LanguageClient } from 'vscode-languageclient/node';

import { createClient } from './client';
import { currentServerConfiguration, currentSettings, discoveryContext, isWorkspaceTrusted, SECTION } from './host';
import { SerialRestarter } from './restart';
import { documentSelector } from './selector';
import { chooseServer } from './bundled';
import type { ServerCommand } from './serverCommand';

/** Where the bundled server's Python was found, as the output channel says it. */
const INTERPRETER_ORIGINS: Record<NonNullable<ServerCommand['interpreter']>, string> = {
  'python-extension': "the Python extension's interpreter",
  'workspace-environment': "the workspace's .venv or venv",
  path: 'a Python on PATH',
};

const OPEN_SETTINGS = 'Open settings';

export class ServerSession {
  private client: LanguageClient | undefined;
  private running: ServerCommand | undefined;
  private deduplicate = true;
  private selector: vscode.DocumentSelector = [];
  private readonly restarter = new SerialRestarter(() => this.replaceClient());
  private readonly started = new vscode.EventEmitter<void>();
  /** Fires each time a server has started (what it knows may have changed: the Testing view asks again). */
  readonly onDidStart = this.started.event;

  constructor(private readonly output: vscode.LogOutputChannel) {}

  /** Starts the server, or restarts it; concurrent calls are serialized and coalesced. */
  restart(): Promise<void> {
    return this.restarter.request();
  }

  /** Stops the server once any restart in progress has finished (deactivation). */
  async shutdown(): Promise<void> {
    await this.restarter.settled();
    await this.stop();
  }

  private async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.running = undefined;
    if (client !== undefined) {
      await client.stop().catch((error: unknown) => this.output.warn(`Stopping the server: ${String(error)}`));
    }
  }

  /** Sends the current configuration (settings changed, or the workspace became trusted). */
  async sendConfiguration(): Promise<void> {
    if (this.client?.isRunning()) {
      await this.client.sendNotification(DidChangeConfigurationNotification.type, {
        settings: { [SECTION]: currentServerConfiguration() },
      });
    }
  }

  /** A request to the running server; undefined when none runs or it fails (logged). */
  async request<R>(method: string, params: unknown): Promise<R | undefined> {
    const client = this.client;
    if (client === undefined || client.state !== State.Running) {
      return undefined;
    }
    try {
      return await client.sendRequest<R>(method, params);
    } catch (error) {
      this.output.warn(`${method}: ${String(error)}`);
      return undefined;
    }
  }

  /**
   * Trust granted: the workspace's own server settings and environment now count, so restart
   * when they change the command; otherwise re-send the configuration (grader imports allowed).
   */
  async onTrustGranted(): Promise<void> {
    const { settings } = currentSettings();
    const { command } = await chooseServer(settings, await discoveryContext());
    if (JSON.stringify(command) !== JSON.stringify(this.running)) {
      await this.restart();
    } else {
      await this.sendConfiguration();
    }
  }

  /**
   * Whether the YAML extension should leave the open document at `resource` (a URI string) to
   * us: the server is starting or running, serves it, and the user keeps
   * `holodeck.yamlExtension.deduplicate` on. (Starting counts, so the YAML extension's first
   * check of a file opened with the workspace does not show the schema's copy of our errors.)
   */
  takesOverFromYamlExtension(resource: string): boolean {
    if (!this.deduplicate || this.client === undefined || this.client.state === State.Stopped) {
      return false;
    }
    const document = vscode.workspace.textDocuments.find((doc) => doc.uri.toString() === resource);
    return document !== undefined && vscode.languages.match(this.selector, document) > 0;
  }

  private async replaceClient(): Promise<void> {
    await this.stop();
    const { settings, problems } = currentSettings();
    problems.forEach((problem) => this.output.warn(problem));
    const { command, message } = await chooseServer(settings, await discoveryContext());
    if (command === undefined) {
      this.output.error(`${message ?? ''} (PATH: ${process.env.PATH ?? ''})`);
      void this.explainNotFound(message ?? '');
      return;
    }
    if (message !== undefined) {
      this.output.warn(message);
    }
    const on = command.interpreter === undefined ? '' : `, on ${INTERPRETER_ORIGINS[command.interpreter]}`;
    this.output.info(`Starting ${[command.command, ...command.args].join(' ')} (from ${command.origin}${on})`);
    const client = createClient(command, settings, isWorkspaceTrusted(), this.output);
    this.client = client;
    this.running = command;
    this.deduplicate = settings.yamlDeduplicate;
    this.selector = documentSelector(settings.include);
    try {
      await client.start();
      this.started.fire();
    } catch (error) {
      this.output.error(`The server did not start: ${String(error)}`);
      void vscode.window.showErrorMessage(`HoloDeck: the language server did not start (${String(error)}).`);
    }
  }

  private async explainNotFound(message: string): Promise<void> {
    const choice = await vscode.window.showErrorMessage(message, OPEN_SETTINGS);
    if (choice === OPEN_SETTINGS) {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'holodeck.server');
    }
  }
}
