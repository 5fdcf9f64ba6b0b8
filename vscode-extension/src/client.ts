// Builds the language client: server options, client options and the middleware that answers
// `workspace/configuration` with the trust-checked object and drops duplicate YAML errors.

import * as vscode from 'vscode';
import {
  LanguageClient,
  type LanguageClientOptions,
  type Middleware,
  type ServerOptions,
} from 'vscode-languageclient/node';

import { currentServerConfiguration, SECTION, serverWorkingDirectory, yamlExtensionValidates } from './host';
import { serverExecutable, type ServerCommand } from './serverCommand';
import { configurationResponse, serverConfiguration } from './serverConfig';
import { documentSelector } from './selector';
import type { Settings } from './settings';
import { withoutYamlExtensionDuplicates } from './yamlInterplay';

export const CLIENT_ID = 'holodeck';
export const CLIENT_NAME = 'HoloDeck';

export function serverOptions(command: ServerCommand): ServerOptions {
  return serverExecutable(command, serverWorkingDirectory());
}

function middleware(settings: Settings): Middleware {
  const dedupe = (): boolean => settings.yamlDeduplicate && yamlExtensionValidates();
  return {
    workspace: {
      configuration: (params, token, next) => {
        // Our section is computed (trust rule applied); other sections go the default way.
        if (!params.items.some((item) => item.section === SECTION)) {
          return next(params, token);
        }
        return configurationResponse(params.items, (scopeUri) =>
          currentServerConfiguration(scopeUri ? vscode.Uri.parse(scopeUri) : undefined),
        );
      },
    },
    handleDiagnostics: (uri, diagnostics, next) => {
      next(uri, withoutYamlExtensionDuplicates(diagnostics, dedupe()));
    },
    provideDiagnostics: async (document, previousResultId, token, next) => {
      const report = await next(document, previousResultId, token);
      if (report && report.kind === 'full') {
        return { ...report, items: withoutYamlExtensionDuplicates(report.items, dedupe()) };
      }
      return report;
    },
  };
}

export function createClient(
  command: ServerCommand,
  settings: Settings,
  workspaceTrusted: boolean,
  outputChannel: vscode.LogOutputChannel,
): LanguageClient {
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(settings.include),
    initializationOptions: serverConfiguration(settings, workspaceTrusted),
    diagnosticCollectionName: CLIENT_ID,
    outputChannel,
    middleware: middleware(settings),
  };
  return new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions(command), clientOptions);
}
