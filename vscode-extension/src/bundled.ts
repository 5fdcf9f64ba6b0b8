// Which server runs, with holodeck.server.importStrategy: `useBundled` (default) runs the copy
// bundled in a platform-specific .vsix (bundled/, built by scripts/bundle_server.py) on the
// first supported Python found; `fromEnvironment`, or a .vsix without a bundle, or no Python
// that can run it, finds the environment's own holodeck-lsp (serverCommand.ts). The
// holodeck.server.command setting wins over both. Pure: files and probes are injected.

import {
  findProgramOnPath,
  resolveServerCommand,
  selectedEnvironmentAllowed,
  workspaceEnvironments,
  NOT_FOUND_MESSAGE,
  settingNotFoundMessage,
  type DiscoveryContext,
  type ServerCommand,
} from './serverCommand';
import type { Settings } from './settings';

/** What bundled/libs/manifest.json says, and where run_server.py is. */
export interface Bundle {
  /** Absolute path of bundled/run_server.py. */
  script: string;
  /** The Python versions it was built for, e.g. ['3.10', ..., '3.14']. */
  pythons: string[];
  /** Their interpreter tags, e.g. ['cp310', ..., 'cp314']. */
  tags: string[];
}

/** What a Python says about itself when probed. */
export interface PythonInfo {
  executable: string;
  version: [number, number];
  implementation: string;
  freeThreaded: boolean;
}

export interface BundledContext extends DiscoveryContext {
  /** The bundle in this .vsix; undefined in the universal one. */
  bundle: Bundle | undefined;
  /** Runs `argv` as a Python and says what it is, or undefined when it does not run. */
  probe(argv: readonly string[]): Promise<PythonInfo | undefined>;
}

export type InterpreterOrigin = NonNullable<ServerCommand['interpreter']>;

export interface InterpreterCandidate {
  argv: string[];
  origin: InterpreterOrigin;
}

/** Flags before run_server.py: -I keeps PYTHONPATH and the user's site-packages out. */
export const BUNDLED_PYTHON_FLAGS = ['-I'];

/**
 * The Pythons to try, in order: the Python extension's selection, the workspace's `.venv` and
 * `venv` (trusted workspaces only), then PATH: `py -3` and `python` on Windows, `python3` and
 * `python` elsewhere.
 */
export function interpreterCandidates(ctx: DiscoveryContext): InterpreterCandidate[] {
  const candidates: InterpreterCandidate[] = [];
  if (ctx.pythonEnvironment !== undefined && selectedEnvironmentAllowed(ctx.pythonEnvironment, ctx)) {
    candidates.push({ argv: [ctx.pythonEnvironment.executable], origin: 'python-extension' });
  }
  for (const env of workspaceEnvironments(ctx)) {
    candidates.push({ argv: [env.executable], origin: 'workspace-environment' });
  }
  const onPath: [string[], string[]][] =
    ctx.platform === 'win32'
      ? [[['py.exe', 'py'], ['-3']], [['python.exe', 'python'], []]]
      : [[['python3'], []], [['python'], []]];
  for (const [names, leading] of onPath) {
    const program = findProgramOnPath(ctx, names);
    if (program !== undefined) {
      candidates.push({ argv: [program, ...leading], origin: 'path' });
    }
  }
  const seen = new Set<string>();
  return candidates.filter((candidate) => {
    const key = candidate.argv.join('\0');
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

/** 'cp311', or 'cp313t' for a free-threaded build: the folder names of bundled/libs. */
export function interpreterTag(info: PythonInfo): string {
  return `cp${info.version[0]}${info.version[1]}${info.freeThreaded ? 't' : ''}`;
}

function describe(info: PythonInfo): string {
  const name = info.implementation === 'cpython' ? 'Python' : info.implementation;
  return `${name} ${info.version.join('.')}${info.freeThreaded ? ' (free-threaded)' : ''} at ${info.executable}`;
}

/** Why `info` cannot run the bundle, or undefined when it can. */
function unsupported(info: PythonInfo, bundle: Bundle): string | undefined {
  if (info.implementation !== 'cpython') {
    return `${describe(info)} is not CPython`;
  }
  if (!bundle.tags.includes(interpreterTag(info))) {
    const [major, minor] = info.version;
    const [oldestMajor, oldestMinor] = bundle.pythons[0].split('.').map(Number);
    const tooOld = major < oldestMajor || (major === oldestMajor && minor < oldestMinor);
    return `${describe(info)} is ${tooOld ? 'too old' : 'not one the extension bundles the server for'}`;
  }
  return undefined;
}

export type InterpreterSearch =
  | { found: PythonInfo; origin: InterpreterOrigin }
  | { found: undefined; rejected: string[] };

/** The first candidate that runs and can run the bundle, or why each one that runs cannot. */
export async function findBundledInterpreter(ctx: BundledContext, bundle: Bundle): Promise<InterpreterSearch> {
  const rejected: string[] = [];
  for (const candidate of interpreterCandidates(ctx)) {
    const info = await ctx.probe(candidate.argv);
    if (info === undefined) {
      rejected.push(`${candidate.argv.join(' ')} did not run`);
      continue;
    }
    const reason = unsupported(info, bundle);
    if (reason === undefined) {
      return { found: info, origin: candidate.origin };
    }
    rejected.push(reason);
  }
  return { found: undefined, rejected };
}

export function bundledPythonProblem(bundle: Bundle, rejected: readonly string[]): string {
  const versions = `${bundle.pythons[0]} to ${bundle.pythons[bundle.pythons.length - 1]}`;
  const tried = rejected.length > 0
    ? `: ${rejected.join('; ')}`
    : " (tried the Python extension's interpreter, the workspace's .venv and venv, python3 and python on PATH)";
  return (
    `HoloDeck: the language server bundled with the extension needs Python ${versions}, and none was found${tried}. ` +
    'Install Python 3.10 or later (or select it in the Python extension), or install holodeck-lsp ' +
    'in your environment and set `holodeck.server.importStrategy` to `fromEnvironment`.'
  );
}

export interface ServerChoice {
  /** What to run; undefined when nothing was found. */
  command: ServerCommand | undefined;
  /** Why nothing runs (shown to the user), or why the bundled server was passed over (logged). */
  message?: string;
}

/** The server to run for these settings: see the comment at the top. */
export async function chooseServer(
  settings: Pick<Settings, 'serverCommand' | 'serverArgs' | 'importStrategy'>,
  ctx: BundledContext,
): Promise<ServerChoice> {
  const { serverCommand, serverArgs } = settings;
  if (serverCommand.length > 0) {
    const command = resolveServerCommand(serverCommand, serverArgs, ctx);
    return command === undefined ? { command, message: settingNotFoundMessage(serverCommand[0]) } : { command };
  }
  let bundledProblem: string | undefined;
  if (settings.importStrategy === 'useBundled' && ctx.bundle !== undefined) {
    const search = await findBundledInterpreter(ctx, ctx.bundle);
    if (search.found !== undefined) {
      const args = [...BUNDLED_PYTHON_FLAGS, ctx.bundle.script, ...serverArgs];
      return { command: { command: search.found.executable, args, origin: 'bundled', interpreter: search.origin } };
    }
    bundledProblem = bundledPythonProblem(ctx.bundle, search.rejected);
  }
  const fromEnvironment = resolveServerCommand([], serverArgs, ctx);
  return { command: fromEnvironment, message: bundledProblem ?? (fromEnvironment ? undefined : NOT_FOUND_MESSAGE) };
}
