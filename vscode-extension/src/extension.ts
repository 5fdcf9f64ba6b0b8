// Activation only: start the server, wire commands and events, stop on deactivation.

import * as vscode from 'vscode';

import { onPythonEnvironmentChange } from './pythonEnv';
import { ServerSession } from './session';
import { RESTART_SECTIONS } from './settings';
import { SuiteTests } from './testing/controller';
import { registerSchemaContributor, YAML_EXTENSION_ID, yamlSchemaApi } from './yamlInterplay';

let session: ServerSession | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('HoloDeck', { log: true });
  const current = new ServerSession(output);
  session = current;

  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('holodeck.restartServer', () => current.restart()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (RESTART_SECTIONS.some((section) => event.affectsConfiguration(section))) {
        void current.restart();
      } else if (event.affectsConfiguration('holodeck')) {
        void current.sendConfiguration();
      }
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void current.onTrustGranted()),
  );

  const pythonWatch = await onPythonEnvironmentChange(vscode.extensions, () => void current.restart());
  if (pythonWatch !== undefined) {
    context.subscriptions.push({ dispose: () => pythonWatch.dispose() });
  }

  const yaml = vscode.extensions.getExtension(YAML_EXTENSION_ID);
  if (yaml !== undefined) {
    // Activating it ourselves is how its API becomes available; it would activate on YAML anyway.
    const api = yamlSchemaApi(yaml.isActive ? yaml.exports : await yaml.activate().then(undefined, () => undefined));
    if (api !== undefined) {
      registerSchemaContributor(api, (resource) => current.takesOverFromYamlExtension(resource));
    }
  }

  await current.restart();
  const tests = new SuiteTests(current, output);
  context.subscriptions.push(tests, current.onDidStart(() => void tests.discover()));
  void tests.discover();
}

export async function deactivate(): Promise<void> {
  await session?.shutdown();
  session = undefined;
}
