// An editor opening one file, as VS Code does it, timed: spawn the server, `initialize`
// with the capabilities given, `initialized`, the settings, `didOpen`, then wait for the
// first published diagnostics of that file that include one on `line`. Prints one JSON
// line: milliseconds from spawn to the `initialize` result and to those diagnostics, and
// the epoch millisecond of the spawn (to line up the server's own timestamps).
// Driven by benchmarks/lsp_first_diagnostics.py; standard library only, so the client is
// the same program for every server it times.
//
//   node first_diagnostics_client.mjs CONFIG.json
//   CONFIG: {command: [...], env: {...}, cwd, capabilities, settings, rootUri, uri,
//            languageId, text, line, stderr}
import { spawn } from "node:child_process";
import { openSync, readFileSync } from "node:fs";

const config = JSON.parse(readFileSync(process.argv[2], "utf8"));
const LIMIT_MS = 120_000;

const start = performance.now();
const spawnedAt = performance.timeOrigin + start;
const server = spawn(config.command[0], config.command.slice(1), {
  cwd: config.cwd,
  env: { ...process.env, ...config.env },
  stdio: ["pipe", "pipe", config.stderr ? openSync(config.stderr, "w") : "ignore"],
});
const since = () => performance.now() - start;
let exitedEarly = true;
server.on("exit", (code) => {
  if (exitedEarly) {
    process.stderr.write(`the server exited (${code}) before its first diagnostics\n`);
    process.exit(1);
  }
});

let nextId = 1;
const pending = new Map();
function send(message) {
  const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...message }), "utf8");
  server.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
  server.stdin.write(body);
}
function request(method, params) {
  const id = nextId++;
  send({ id, method, params });
  return new Promise((resolve) => pending.set(id, resolve));
}
const notify = (method, params) => send({ method, params });

// The answers a client owes the server's own requests.
function answer(message) {
  let result = null;
  if (message.method === "workspace/configuration") {
    result = message.params.items.map((item) => (item.section ? config.settings[item.section.split(".")[0]] ?? null : config.settings));
  }
  send({ id: message.id, result });
}

let finished;
const done = new Promise((resolve) => (finished = resolve));
let initializeMs = null;
function received(message) {
  if (message.method === undefined) {
    pending.get(message.id)?.(message.result);
    pending.delete(message.id);
  } else if (message.id !== undefined) {
    answer(message);
  } else if (message.method === "textDocument/publishDiagnostics" && message.params.uri === config.uri) {
    if (message.params.diagnostics.some((d) => d.range.start.line === config.line)) {
      finished({ diagnostics: message.params.diagnostics.length, ms: since() });
    }
  }
}

let buffer = Buffer.alloc(0);
server.stdout.on("data", (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const end = buffer.indexOf("\r\n\r\n");
    if (end < 0) return;
    const length = Number(/Content-Length: *(\d+)/i.exec(buffer.subarray(0, end).toString())[1]);
    if (buffer.length < end + 4 + length) return;
    const body = buffer.subarray(end + 4, end + 4 + length).toString("utf8");
    buffer = buffer.subarray(end + 4 + length);
    received(JSON.parse(body));
  }
});

const timeout = setTimeout(() => {
  process.stderr.write("no diagnostics within the limit\n");
  server.kill("SIGKILL");
  process.exit(1);
}, LIMIT_MS);

await request("initialize", {
  processId: process.pid,
  clientInfo: { name: "Visual Studio Code", version: "1.90.0" },
  rootUri: config.rootUri,
  workspaceFolders: [{ uri: config.rootUri, name: "workspace" }],
  capabilities: config.capabilities,
});
initializeMs = since();
notify("initialized", {});
notify("workspace/didChangeConfiguration", { settings: config.settings });
notify("textDocument/didOpen", {
  textDocument: { uri: config.uri, languageId: config.languageId, version: 1, text: config.text },
});
const result = await done;
exitedEarly = false;
clearTimeout(timeout);
process.stdout.write(JSON.stringify({ spawnedAt, initializeMs, diagnosticsMs: result.ms, count: result.diagnostics }) + "\n");
await Promise.race([request("shutdown", null), new Promise((resolve) => setTimeout(resolve, 5000))]);
notify("exit", null);
server.stdin.end();
const exited = new Promise((resolve) => server.on("exit", resolve));
await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
server.kill("SIGKILL");
