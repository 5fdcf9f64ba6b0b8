// Starts holodeck-lsp exactly as the extension would (same settings resolution, command discovery
// and server configuration) and speaks to it with the language client's own protocol library.

import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

import {
  ConfigurationRequest,
  createProtocolConnection,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  WorkDoneProgressCreateRequest,
  type ClientCapabilities,
  type Diagnostic,
  type InitializeResult,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';

import { resolveServerCommand, serverExecutable, type DiscoveryContext, type ServerCommand } from '../../src/serverCommand';
import { configurationResponse, serverConfiguration, type ServerConfiguration } from '../../src/serverConfig';
import { readSettings, type Settings } from '../../src/settings';

export const EXTENSION_DIR = resolve(__dirname, '..', '..', '..');
export const REPO_DIR = resolve(EXTENSION_DIR, '..');
export const FIXTURE_WORKSPACE = join(EXTENSION_DIR, 'test', 'fixtures', 'workspace');

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The Python environment a user of this checkout would select: $HOLODECK_PYTHON, else the
 * repository's .venv (the Python extension's usual pick), stubbing the Python extension's API.
 */
function selectedPython(): string | undefined {
  const candidates = [process.env.HOLODECK_PYTHON, join(REPO_DIR, '.venv', 'bin', 'python')];
  return candidates.find((candidate): candidate is string => !!candidate && existsSync(candidate));
}

/**
 * The user's settings for these tests: the defaults, as a fresh install has them, except that
 * $HOLODECK_TEST_SERVER_COMMAND (a path) stands for a `holodeck.server.command` setting.
 */
export function testSettings(): Settings {
  const command = process.env.HOLODECK_TEST_SERVER_COMMAND;
  return readSettings({ get: (key) => (key === 'server.command' ? command : undefined) }).settings;
}

export function discoverServer(settings: Settings, workspaceTrusted = true): ServerCommand | undefined {
  const python = selectedPython();
  const ctx: DiscoveryContext = {
    pythonEnvironment: python ? { executable: python } : undefined,
    pathVariable: process.env.PATH,
    platform: process.platform,
    isExecutableFile,
    workspaceTrusted,
    workspaceFolders: [FIXTURE_WORKSPACE],
  };
  return resolveServerCommand(settings.serverCommand, settings.serverArgs, ctx);
}

/** Whether the server is installed and answers `initialize` (it is built alongside this). */
export function serverUnavailableReason(): string | undefined {
  const command = discoverServer(testSettings());
  if (command === undefined) {
    return 'holodeck-lsp is not installed (no .venv/bin/holodeck-lsp, nothing on PATH)';
  }
  return undefined;
}

/** Client capabilities of the kind the VS Code language client declares. */
export function clientCapabilities(pullDiagnostics: boolean): ClientCapabilities {
  return {
    general: { positionEncodings: ['utf-16'] },
    workspace: {
      configuration: true,
      workspaceFolders: true,
      didChangeConfiguration: { dynamicRegistration: true },
      ...(pullDiagnostics ? { diagnostics: { refreshSupport: true } } : {}),
    },
    textDocument: {
      synchronization: { dynamicRegistration: true, didSave: true },
      publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true, dataSupport: true },
      ...(pullDiagnostics ? { diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false } } : {}),
      hover: { contentFormat: ['markdown', 'plaintext'] },
      completion: {
        completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'] },
        contextSupport: true,
      },
    },
  };
}

export interface RunningServer {
  connection: ProtocolConnection;
  process: ChildProcess;
  initializeResult: InitializeResult;
  /** Every `workspace/configuration` answer we gave, in order. */
  configurationAnswers: (ServerConfiguration | null)[][];
  /** Resolves with the first `workspace/configuration` answer. */
  firstConfigurationAnswer: Promise<(ServerConfiguration | null)[]>;
  /** Resolves with the next diagnostics the server pushes for `uri` that satisfy `accept`. */
  nextDiagnostics(uri: string, accept?: (diagnostics: Diagnostic[]) => boolean): Promise<Diagnostic[]>;
  /** `promise`, or the server's death if that comes first. */
  request<T>(promise: Promise<T>): Promise<T>;
  stderr(): string;
  stop(): Promise<void>;
}

function racing<T>(died: Promise<never>, promise: Promise<T>): Promise<T> {
  return Promise.race([died, promise]);
}

export async function startServer(options: {
  settings: Settings;
  workspaceTrusted: boolean;
  pullDiagnostics: boolean;
  /** What to run instead of what `discoverServer` finds (the bundled server), and its environment. */
  command?: ServerCommand;
  env?: NodeJS.ProcessEnv;
}): Promise<RunningServer> {
  const command = options.command ?? discoverServer(options.settings, options.workspaceTrusted);
  if (command === undefined) {
    throw new Error('holodeck-lsp not found');
  }
  // The extension's server options (cwd: the first workspace folder), spawned as the client does.
  const executable = serverExecutable(command, FIXTURE_WORKSPACE);
  const child = spawn(executable.command, executable.args, { ...executable.options, env: options.env, stdio: 'pipe' });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));

  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const configuration = serverConfiguration(options.settings, options.workspaceTrusted);
  const configurationAnswers: (ServerConfiguration | null)[][] = [];
  let answered: (answer: (ServerConfiguration | null)[]) => void = () => undefined;
  const firstConfigurationAnswer = new Promise<(ServerConfiguration | null)[]>((resolveAnswer) => (answered = resolveAnswer));
  connection.onRequest(ConfigurationRequest.type, (params) => {
    const answer = configurationResponse(params.items, () => configuration);
    configurationAnswers.push(answer);
    answered(answer);
    return answer;
  });
  connection.onRequest(RegistrationRequest.type, () => undefined);
  connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);

  const waiters: {
    uri: string;
    accept: (d: Diagnostic[]) => boolean;
    resolve: (d: Diagnostic[]) => void;
    reject: (error: Error) => void;
  }[] = [];
  connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
    for (const waiter of [...waiters]) {
      if (waiter.uri === params.uri && waiter.accept(params.diagnostics)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(params.diagnostics);
      }
    }
  });
  // A server that dies fails whatever is waiting on it, with its stderr, instead of hanging.
  let stopping = false;
  const died = new Promise<never>((_, reject) => {
    child.once('exit', (code, signal) => {
      if (!stopping) {
        const error = new Error(`holodeck-lsp exited (code ${code}, signal ${signal}):\n${stderr}`);
        waiters.splice(0).forEach((waiter) => waiter.reject(error));
        reject(error);
      }
    });
  });
  died.catch(() => undefined);
  connection.listen();

  const workspaceUri = `file://${FIXTURE_WORKSPACE}`;
  const initializeResult = await racing(died, connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: workspaceUri,
    workspaceFolders: [{ uri: workspaceUri, name: 'workspace' }],
    capabilities: clientCapabilities(options.pullDiagnostics),
    initializationOptions: configuration,
  }));
  await connection.sendNotification(InitializedNotification.type, {});

  return {
    connection,
    process: child,
    initializeResult,
    configurationAnswers,
    firstConfigurationAnswer: racing(died, firstConfigurationAnswer),
    nextDiagnostics: (uri, accept = () => true) =>
      racing(died, new Promise((resolvePromise, reject) => waiters.push({ uri, accept, resolve: resolvePromise, reject }))),
    request: (promise) => racing(died, promise),
    stderr: () => stderr,
    stop: async () => {
      stopping = true;
      const exited = new Promise<void>((resolveExit) => {
        if (child.exitCode !== null) {
          resolveExit();
        } else {
          child.once('exit', () => resolveExit());
        }
      });
      await connection.sendRequest(ShutdownRequest.type);
      await connection.sendNotification(ExitNotification.type);
      await exited;
      connection.dispose();
    },
  };
}
