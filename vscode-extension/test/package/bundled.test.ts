// The platform-specific .vsix (npm run package:bundled): the server and its libraries are inside,
// and the copy installed from it serves the fixture on a plain python3 with no holodeck-lsp
// anywhere, as the extension starts it, even when the interpreter's site-packages have another.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { DidOpenTextDocumentNotification, ExecuteCommandRequest, type Diagnostic } from 'vscode-languageserver-protocol/node';

import { chooseServer, type BundledContext, type PythonInfo } from '../../src/bundled';
import { probePython, readBundle } from '../../src/pythonRuntime';
import { BUNDLED_TARGET, BUNDLED_VSIX, environmentWithoutServer, python3ImportsServer } from '../support/bundled';
import { FIXTURE_WORKSPACE, REPO_DIR, startServer, testSettings } from '../support/server';
import { extractZip, zipEntries } from '../support/zip';

// Built by `npm run package:bundled`; CI always builds it, a developer may not have.
const skip = !existsSync(BUNDLED_VSIX) && process.env.CI !== 'true' ? `${BUNDLED_VSIX} is not built` : false;

const FIXTURE = join(FIXTURE_WORKSPACE, 'agent.yaml');
const CONVFINQA = join(REPO_DIR, 'examples', 'convfinqa');
const OPTIONAL_EXTRAS = ['chromadb', 'qdrant_client', 'mcp', 'psycopg', 'faiss', 'pypdf', 'nltk', 'sacrebleu', 'numpy'];

/** The extension's discovery on this machine, with the Python extension's choice `selected`. */
function context(extensionRoot: string, env: NodeJS.ProcessEnv, selected?: string): BundledContext {
  return {
    pythonEnvironment: selected === undefined ? undefined : { executable: selected },
    pathVariable: env.PATH,
    platform: process.platform,
    isExecutableFile: (file) => spawnSync('test', ['-x', file, '-a', '-f', file]).status === 0,
    workspaceTrusted: true,
    workspaceFolders: [FIXTURE_WORKSPACE],
    bundle: readBundle(extensionRoot),
    probe: probePython,
  };
}

/** Starts the server the extension would start, opens the fixture, returns its diagnostics. */
async function fixtureDiagnostics(
  ctx: BundledContext,
  env: NodeJS.ProcessEnv,
): Promise<{ origin: string; python: string; diagnostics: Diagnostic[] }> {
  const settings = testSettings();
  const { command, message } = await chooseServer(settings, ctx);
  assert.ok(command, message);
  const server = await startServer({ settings, workspaceTrusted: true, pullDiagnostics: false, command, env });
  try {
    const uri = `file://${FIXTURE}`;
    const diagnostics = server.nextDiagnostics(uri, (items) => items.length > 0);
    await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'yaml', version: 1, text: readFileSync(FIXTURE, 'utf8') },
    });
    return { origin: command.origin, python: command.command, diagnostics: await diagnostics };
  } finally {
    await server.stop();
  }
}

/**
 * The CPython interpreters of this machine, other than the one on PATH: python3.X on PATH, and
 * pyenv's versions (whose shims only run the global one).
 */
async function localPythons(): Promise<PythonInfo[]> {
  const programs = ['3.9', '3.10', '3.11', '3.12', '3.13', '3.14'].map((version) => `python${version}`);
  const pyenvRoot = spawnSync('pyenv', ['root'], { encoding: 'utf8' });
  const versions = pyenvRoot.status === 0 ? join(pyenvRoot.stdout.trim(), 'versions') : undefined;
  if (versions !== undefined && existsSync(versions)) {
    programs.push(...readdirSync(versions).map((version) => join(versions, version, 'bin', 'python3')).filter(existsSync));
  }
  const found = new Map<string, PythonInfo>();
  for (const program of programs) {
    const info = await probePython([program]);
    if (info !== undefined && info.implementation === 'cpython') {
      found.set(info.version.join('.'), info);
    }
  }
  return [...found.values()];
}

describe(`the ${BUNDLED_TARGET} package with the server bundled`, { skip }, () => {
  let entries: Map<string, () => Buffer>;
  let home: string;
  let extensionRoot: string;
  const env = environmentWithoutServer();

  before(() => {
    entries = zipEntries(BUNDLED_VSIX);
    home = mkdtempSync(join(tmpdir(), 'holodeck-bundled-'));
    extractZip(BUNDLED_VSIX, home);
    extensionRoot = join(home, 'extension');
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  it('is marked for its platform and holds the server, its libraries per Python version, and no extras', () => {
    const vsixManifest = entries.get('extension.vsixmanifest')!().toString('utf8');
    assert.match(vsixManifest, new RegExp(`TargetPlatform="${BUNDLED_TARGET}"`));
    const manifest = JSON.parse(entries.get('extension/bundled/libs/manifest.json')!().toString('utf8'));
    assert.equal(manifest.target, BUNDLED_TARGET);
    assert.deepEqual(manifest.pythons, ['3.10', '3.11', '3.12', '3.13', '3.14']);
    const names = [...entries.keys()];
    const has = (pattern: RegExp): boolean => names.some((name) => pattern.test(name));
    assert.ok(has(/^extension\/bundled\/run_server\.py$/));
    assert.ok(has(/^extension\/dist\/extension\.js$/));
    for (const pkg of ['holodeck_lsp', 'pygls', 'lsprotocol', 'pydantic', 'typer', 'httpx', 'rich', 'jsonschema']) {
      assert.ok(has(new RegExp(`^extension/bundled/libs/common/${pkg}/__init__\\.py$`)), pkg);
    }
    for (const tag of manifest.tags as string[]) {
      // The compiled wheels, one build per CPython version (no abi3 build exists for them).
      const abi = `cpython-${tag.slice(2)}-x86_64-linux-gnu`;
      assert.ok(has(new RegExp(`^extension/bundled/libs/${tag}/pydantic_core/_pydantic_core\\.${abi}\\.so$`)), tag);
      assert.ok(has(new RegExp(`^extension/bundled/libs/${tag}/yaml/_yaml\\.${abi}\\.so$`)), tag);
      assert.ok(has(new RegExp(`^extension/bundled/libs/${tag}/rpds/rpds\\.${abi}\\.so$`)), tag); // jsonschema's
    }
    for (const extra of OPTIONAL_EXTRAS) {
      assert.ok(!has(new RegExp(`^extension/bundled/libs/[^/]+/${extra}/`)), `${extra} is an optional extra`);
    }
    assert.ok(!has(/__pycache__|\/bin\//), 'no compiled caches or console scripts of the build machine');
  });

  it('serves the fixture from a plain python3 on PATH, with no holodeck-lsp installed and PYTHONPATH empty', async () => {
    assert.equal(python3ImportsServer(env), undefined, 'this machine\'s python3 must not have holodeck_lsp');
    const { origin, diagnostics } = await fixtureDiagnostics(context(extensionRoot, env), env);
    assert.equal(origin, 'bundled');
    assert.deepEqual(
      diagnostics.map((d) => [d.source, d.code, d.range.start.line + 1]),
      [['holodeck-lsp', 'HL401', 23]],
    );
  });

  it('is not shadowed by another holodeck-lsp or pydantic in the interpreter\'s site-packages', async () => {
    const venv = join(home, 'shadowing-venv');
    const created = spawnSync('python3', ['-m', 'venv', '--without-pip', venv], { env, encoding: 'utf8' });
    assert.equal(created.status, 0, created.stderr);
    const probe = spawnSync(join(venv, 'bin', 'python'), ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'], { encoding: 'utf8' });
    const sitePackages = probe.stdout.trim();
    for (const pkg of ['holodeck_lsp', 'pydantic', 'yaml']) {
      mkdirSync(join(sitePackages, pkg), { recursive: true });
      writeFileSync(join(sitePackages, pkg, '__init__.py'), `raise ImportError("the environment's ${pkg} was imported")\n`);
    }
    const shadowed = spawnSync(join(venv, 'bin', 'python'), ['-c', 'import holodeck_lsp'], { env, encoding: 'utf8' });
    assert.match(shadowed.stderr, /the environment's holodeck_lsp was imported/);

    const selected = join(venv, 'bin', 'python');
    const { origin, diagnostics } = await fixtureDiagnostics(context(extensionRoot, env, selected), env);
    assert.equal(origin, 'bundled');
    assert.deepEqual(diagnostics.map((d) => d.code), ['HL401']);
  });

  it('runs the CLI and the server\'s own run child on the bundled libraries (a report placed in the editor)', async () => {
    const suite = join(home, 'convfinqa');
    cpSync(CONVFINQA, suite, { recursive: true });
    const ctx = context(extensionRoot, env);
    const { command } = await chooseServer({ ...testSettings(), serverArgs: [] }, ctx);
    assert.equal(command?.origin, 'bundled');
    const run = spawnSync(command!.command, [...command!.args, 'run', 'agent.yaml', '--replay', 'replay.jsonl', '-o', 'report.json', '-q'], {
      cwd: suite, env, encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);

    const { command: serve } = await chooseServer(testSettings(), ctx);
    const server = await startServer({ settings: testSettings(), workspaceTrusted: true, pullDiagnostics: false, command: serve, env });
    try {
      const uri = `file://${join(suite, 'agent.yaml')}`;
      await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: 'yaml', version: 1, text: readFileSync(join(suite, 'agent.yaml'), 'utf8') },
      });
      // `holodeck.showReport` starts `run --from-report` in a child process of the server.
      const answer = await server.request(
        server.connection.sendRequest(ExecuteCommandRequest.type, { command: 'holodeck.showReport', arguments: [uri, 'report.json'] }),
      );
      assert.deepEqual(answer, { exitCode: 0, passed: 3, failed: 0 });
    } finally {
      await server.stop();
    }
  });

  it('runs on each CPython 3.10+ this machine has, selected in the Python extension; an older one is passed over', async () => {
    const pythons = await localPythons();
    const supported = pythons.filter((info) => info.version[0] === 3 && info.version[1] >= 10);
    assert.ok(supported.length > 0, 'at least the python3 the other tests use');
    for (const info of supported) {
      const { python, diagnostics } = await fixtureDiagnostics(context(extensionRoot, env, info.executable), env);
      assert.equal(python, info.executable, `Python ${info.version.join('.')}`);
      assert.deepEqual(diagnostics.map((d) => d.code), ['HL401'], `Python ${info.version.join('.')}`);
    }
    for (const old of pythons.filter((info) => info.version[0] === 3 && info.version[1] < 10)) {
      const { command, message } = await chooseServer(testSettings(), { ...context(extensionRoot, env, old.executable), pathVariable: '' });
      assert.equal(command, undefined);
      assert.match(message ?? '', new RegExp(`Python ${old.version.join('\\.')} at .* is too old`));
    }
    console.log(`bundled server served the fixture on CPython ${supported.map((info) => info.version.join('.')).join(', ')}`);
  });
});
