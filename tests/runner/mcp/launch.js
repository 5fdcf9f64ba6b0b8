// Starts tests/runner/mcp/sdk_server.py with the Python in MCP_PYTHON, so an agent file can
// declare the SDK server with `command: node` (HoloDeck's stdio commands are npx, node,
// uvx and docker). stdio is handed through; the exit code is passed back.
const { spawn } = require("child_process");
const path = require("path");

const python = process.env.MCP_PYTHON || "python3";
const server = path.join(__dirname, "sdk_server.py");
const child = spawn(python, [server, ...process.argv.slice(2)], { stdio: "inherit" });
child.on("exit", (code, signal) => process.exit(signal ? 1 : code));
for (const sig of ["SIGTERM", "SIGINT"]) process.on(sig, () => child.kill(sig));
