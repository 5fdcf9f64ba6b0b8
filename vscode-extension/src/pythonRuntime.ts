// The node side of the bundled server: reading the bundle's manifest, and asking a Python what it
// is (version, implementation) without importing anything of the user's environment.

import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

import type { Bundle, PythonInfo } from './bundled';

/** The extension's own folder: dist/extension.js sits one level below it. */
export const EXTENSION_ROOT = path.join(__dirname, '..');

/** Whether a bundle built for VS Code target `target` (linux-x64, alpine-arm64, ...) runs here. */
export function targetMatches(target: string, platform: NodeJS.Platform, arch: string): boolean {
  const [os, cpu] = target.split('-');
  return cpu === arch && (os === platform || (os === 'alpine' && platform === 'linux'));
}

/**
 * The bundle in `extensionRoot`, or undefined: the universal .vsix has none, and one built for
 * another platform (a checkout's bundled/libs) cannot run here.
 */
export function readBundle(
  extensionRoot: string = EXTENSION_ROOT,
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): Bundle | undefined {
  const folder = path.join(extensionRoot, 'bundled');
  const script = path.join(folder, 'run_server.py');
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'libs', 'manifest.json'), 'utf8')) as Partial<Bundle> & {
      target?: unknown;
    };
    if (typeof manifest.target !== 'string' || !targetMatches(manifest.target, platform, arch)) {
      return undefined;
    }
    const isList = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');
    if (!fs.existsSync(script) || !isList(manifest.pythons) || !isList(manifest.tags) || manifest.pythons.length === 0) {
      return undefined;
    }
    return { script, pythons: manifest.pythons, tags: manifest.tags };
  } catch {
    return undefined;
  }
}

// Written for any Python 3 (an old one must answer too, to be reported as too old).
const PROBE = [
  'import json, sys, sysconfig',
  'print(json.dumps({"executable": sys.executable, "version": list(sys.version_info[:2]),',
  ' "implementation": sys.implementation.name,',
  ' "freeThreaded": bool(sysconfig.get_config_var("Py_GIL_DISABLED"))}))',
].join('\n');

const PROBE_TIMEOUT_MS = 15_000;

function parseProbe(stdout: string): PythonInfo | undefined {
  try {
    const info = JSON.parse(stdout.trim()) as Partial<PythonInfo>;
    const version = info.version;
    if (
      typeof info.executable === 'string' && info.executable !== '' &&
      Array.isArray(version) && version.length === 2 && version.every(Number.isInteger) &&
      typeof info.implementation === 'string' && typeof info.freeThreaded === 'boolean'
    ) {
      return { executable: info.executable, version: [version[0], version[1]], implementation: info.implementation, freeThreaded: info.freeThreaded };
    }
  } catch {
    // not a Python, or not one that answered: reported as "did not run"
  }
  return undefined;
}

/** Runs `argv` (a Python and its first arguments, e.g. `py -3`) isolated, and reads its answer. */
export function probePython(argv: readonly string[]): Promise<PythonInfo | undefined> {
  const [program, ...leading] = argv;
  return new Promise((resolve) => {
    execFile(
      program,
      [...leading, '-I', '-c', PROBE],
      { timeout: PROBE_TIMEOUT_MS, windowsHide: true, encoding: 'utf8' },
      (error, stdout) => resolve(error ? undefined : parseProbe(stdout)),
    );
  });
}
