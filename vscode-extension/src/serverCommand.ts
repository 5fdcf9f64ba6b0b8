// Which program runs the server (holodeck.server.importStrategy `fromEnvironment`): the setting,
// else holodeck-lsp from the selected Python environment, else from the workspace's .venv/venv
// (trusted workspaces only), else on PATH. Pure: the file system and environment are injected.

import * as path from 'path';

export const SERVER_PROGRAM = 'holodeck-lsp';

export interface ServerCommand {
  command: string;
  args: string[];
  /** Where the command came from, for the output channel. */
  origin: 'setting' | 'python-environment' | 'workspace-environment' | 'path' | 'bundled';
  /** For the bundled server: where the Python that runs it was found. */
  interpreter?: 'python-extension' | 'workspace-environment' | 'path';
}

export interface PythonEnvironment {
  /** The interpreter of the environment selected in the Python extension. */
  executable: string;
}

export interface DiscoveryContext {
  /** The selected Python environment, when the Python extension offers one. */
  pythonEnvironment?: PythonEnvironment;
  /** `process.env.PATH`. */
  pathVariable: string | undefined;
  platform: NodeJS.Platform;
  isExecutableFile: (file: string) => boolean;
  /** When false, an environment inside the workspace is not trusted to run. */
  workspaceTrusted: boolean;
  workspaceFolders: readonly string[];
}

function executableNames(platform: NodeJS.Platform): string[] {
  return platform === 'win32'
    ? [`${SERVER_PROGRAM}.exe`, `${SERVER_PROGRAM}.cmd`, SERVER_PROGRAM]
    : [SERVER_PROGRAM];
}

export function pathApi(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

function isInside(file: string, folder: string, api: path.PlatformPath): boolean {
  const relative = api.relative(folder, file);
  return relative !== '' && !relative.startsWith('..') && !api.isAbsolute(relative);
}

/** holodeck-lsp next to the interpreter (venv `bin/`, Windows `Scripts\`), if it is there. */
export function findInPythonEnvironment(env: PythonEnvironment, ctx: DiscoveryContext): string | undefined {
  const api = pathApi(ctx.platform);
  const binDir = api.dirname(env.executable);
  const dirs = ctx.platform === 'win32' ? [binDir, api.join(binDir, 'Scripts')] : [binDir];
  for (const dir of dirs) {
    for (const name of executableNames(ctx.platform)) {
      const candidate = api.join(dir, name);
      if (ctx.isExecutableFile(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

/** The folders of a workspace environment, where `python -m venv` puts them. */
const WORKSPACE_ENVIRONMENTS = ['.venv', 'venv'];

/**
 * The interpreters of the workspace folders' own environments (`.venv`, `venv`), in that
 * order, that exist; none in a restricted workspace, which must not get to run what it ships.
 */
export function workspaceEnvironments(ctx: DiscoveryContext): PythonEnvironment[] {
  if (!ctx.workspaceTrusted) {
    return [];
  }
  const api = pathApi(ctx.platform);
  const interpreter = ctx.platform === 'win32' ? ['Scripts', 'python.exe'] : ['bin', 'python'];
  return ctx.workspaceFolders
    .flatMap((folder) => WORKSPACE_ENVIRONMENTS.map((name) => api.join(folder, name, ...interpreter)))
    .filter((executable) => ctx.isExecutableFile(executable))
    .map((executable) => ({ executable }));
}

/**
 * Whether a PATH entry names the same folder wherever a program starts. A relative entry (and an
 * empty one, which means the current folder) would be looked at here, in the extension host's
 * folder, but read by the program in the folder it starts in, the workspace's: a cloned
 * repository could ship the program found there. On Windows only a drive's root (`C:\`) or a
 * share (`\\server\share`) is absolute: `\bin` and `C:bin` depend on the current drive and
 * folder.
 */
export function isAbsolutePathEntry(dir: string, platform: NodeJS.Platform): boolean {
  return platform === 'win32' ? /^([a-zA-Z]:[\\/]|[\\/]{2}[^\\/])/.test(dir) : dir.startsWith('/');
}

/** The first of `names` found in an absolute folder of PATH, in PATH order. */
export function findProgramOnPath(ctx: DiscoveryContext, names: readonly string[]): string | undefined {
  const api = pathApi(ctx.platform);
  const separator = ctx.platform === 'win32' ? ';' : ':';
  for (const dir of (ctx.pathVariable ?? '').split(separator)) {
    if (!isAbsolutePathEntry(dir, ctx.platform)) {
      continue;
    }
    for (const name of names) {
      const candidate = api.join(dir, name);
      if (ctx.isExecutableFile(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

export function findOnPath(ctx: DiscoveryContext): string | undefined {
  return findProgramOnPath(ctx, executableNames(ctx.platform));
}

/**
 * The program `holodeck.server.command` names, as a path that does not depend on the folder it
 * starts in: a name without a folder (`uv`) is looked up in PATH's absolute folders here, since
 * starting it by name would search PATH's relative folders in the workspace folder (and, on
 * Windows, the workspace folder first). Undefined when it is in none of them.
 */
export function settingProgram(program: string, ctx: DiscoveryContext): string | undefined {
  const api = pathApi(ctx.platform);
  if (program.includes('/') || (ctx.platform === 'win32' && program.includes('\\'))) {
    return program;
  }
  const names =
    ctx.platform === 'win32' && api.extname(program) === ''
      ? [`${program}.exe`, `${program}.cmd`, `${program}.bat`, program]
      : [program];
  return findProgramOnPath(ctx, names);
}

export function settingNotFoundMessage(program: string): string {
  return (
    `HoloDeck: holodeck.server.command names \`${program}\`, which is in no absolute folder of PATH ` +
    '(relative PATH entries are never searched: the server starts in the workspace folder). ' +
    'Give its full path, or add its folder to PATH.'
  );
}

/** Whether the selected environment may be used: not one the restricted workspace ships. */
export function selectedEnvironmentAllowed(env: PythonEnvironment, ctx: DiscoveryContext): boolean {
  const api = pathApi(ctx.platform);
  const fromWorkspace = ctx.workspaceFolders.some((folder) => isInside(env.executable, folder, api));
  return ctx.workspaceTrusted || !fromWorkspace;
}

/** The server command, or undefined when none can be found (the caller explains it). */
export function resolveServerCommand(
  commandSetting: readonly string[],
  args: readonly string[],
  ctx: DiscoveryContext,
): ServerCommand | undefined {
  if (commandSetting.length > 0) {
    const [program, ...leading] = commandSetting;
    const command = settingProgram(program, ctx);
    return command === undefined ? undefined : { command, args: [...leading, ...args], origin: 'setting' };
  }
  // A restricted workspace must not get to run a program it ships (e.g. its own .venv).
  if (ctx.pythonEnvironment !== undefined && selectedEnvironmentAllowed(ctx.pythonEnvironment, ctx)) {
    const found = findInPythonEnvironment(ctx.pythonEnvironment, ctx);
    if (found !== undefined) {
      return { command: found, args: [...args], origin: 'python-environment' };
    }
  }
  for (const env of workspaceEnvironments(ctx)) {
    const found = findInPythonEnvironment(env, ctx);
    if (found !== undefined) {
      return { command: found, args: [...args], origin: 'workspace-environment' };
    }
  }
  const onPath = findOnPath(ctx);
  if (onPath !== undefined) {
    return { command: onPath, args: [...args], origin: 'path' };
  }
  return undefined;
}

export const NOT_FOUND_MESSAGE =
  'HoloDeck: the language server `holodeck-lsp` was not found in the selected Python environment, ' +
  "the workspace's .venv or on PATH. Install it (`pip install -e .` in a clone of holodeck-lsp; once it is on PyPI, " +
  '`pip install holodeck-lsp`) or set `holodeck.server.command`.';

/** How the language client launches the server: what it spawns, and where. */
export interface ServerExecutable {
  command: string;
  args: string[];
  options: { cwd?: string };
}

/**
 * The client's server options. No `transport` on purpose: stdio is the default, and naming it
 * makes the language client append `--stdio`, which `holodeck-lsp serve` does not take.
 */
export function serverExecutable(command: ServerCommand, cwd: string | undefined): ServerExecutable {
  return { command: command.command, args: [...command.args], options: cwd === undefined ? {} : { cwd } };
}
