// The only place that reads VS Code's state for the other modules, so tests can stub `vscode`.

import * as fs from 'fs';
import * as vscode from 'vscode';

import type { BundledContext } from './bundled';
import { selectedPythonEnvironment } from './pythonEnv';
import { probePython, readBundle } from './pythonRuntime';
import { CONFIGURATION_SECTION, serverConfiguration, type ServerConfiguration } from './serverConfig';
import { readSettings, type SettingsResult } from './settings';
import { YAML_EXTENSION_ID } from './yamlInterplay';

export const SECTION = CONFIGURATION_SECTION;

export function currentSettings(scope?: vscode.Uri): SettingsResult {
  return readSettings(vscode.workspace.getConfiguration(SECTION, scope));
}

export function isWorkspaceTrusted(): boolean {
  return vscode.workspace.isTrusted;
}

/** The object the server receives for `scope` (or the whole window). */
export function currentServerConfiguration(scope?: vscode.Uri): ServerConfiguration {
  return serverConfiguration(currentSettings(scope).settings, isWorkspaceTrusted());
}

function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

export async function discoveryContext(): Promise<BundledContext> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  return {
    pythonEnvironment: await selectedPythonEnvironment(vscode.extensions, folders[0]?.uri),
    pathVariable: process.env.PATH,
    platform: process.platform,
    isExecutableFile,
    workspaceTrusted: isWorkspaceTrusted(),
    workspaceFolders: folders.map((folder) => folder.uri.fsPath),
    bundle: readBundle(),
    probe: probePython,
  };
}

/** Whether the YAML extension is active and validating YAML files. */
export function yamlExtensionValidates(): boolean {
  const extension = vscode.extensions.getExtension(YAML_EXTENSION_ID);
  return extension?.isActive === true && vscode.workspace.getConfiguration('yaml').get('validate') !== false;
}

export function serverWorkingDirectory(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}
