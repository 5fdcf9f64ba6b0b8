// The one object the server receives, both as `initializationOptions` and as the
// `holodeck` section of `workspace/configuration`, with the workspace-trust rule applied.

import type { GraderImport, SeverityName, Settings } from './settings';

export interface ServerConfiguration {
  files: { include: string[] };
  graders: { import: GraderImport };
  workspaceTrusted: boolean;
  severity: Record<string, SeverityName>;
  /**
   * `run.replay`: the suites' recording, which the server's lenses replay; `run.baseline`: the
   * report they compare with (each omitted when unset).
   */
  run?: { replay?: string; baseline?: string };
  /** `validation.timeLimit`: seconds one validation may take. */
  validation: { timeLimit: number };
}

/** The trust rule: a restricted workspace never imports graders, whatever the setting says. */
export function effectiveGraderImport(setting: GraderImport, workspaceTrusted: boolean): GraderImport {
  return workspaceTrusted ? setting : 'never';
}

export function serverConfiguration(settings: Settings, workspaceTrusted: boolean): ServerConfiguration {
  const run = {
    ...(settings.runReplay === '' ? {} : { replay: settings.runReplay }),
    ...(settings.runBaseline === '' ? {} : { baseline: settings.runBaseline }),
  };
  return {
    files: { include: [...settings.include] },
    graders: { import: effectiveGraderImport(settings.graderImport, workspaceTrusted) },
    workspaceTrusted,
    severity: { ...settings.severity },
    ...(Object.keys(run).length === 0 ? {} : { run }),
    validation: { timeLimit: settings.validationTimeLimit },
  };
}

/**
 * The answer to a `workspace/configuration` request: our object for each `holodeck` item,
 * `null` for any other section (the server asks only for ours).
 */
export function configurationResponse(
  items: readonly { section?: string; scopeUri?: string }[],
  ours: (scopeUri: string | undefined) => ServerConfiguration,
): (ServerConfiguration | null)[] {
  return items.map((item) => (item.section === CONFIGURATION_SECTION ? ours(item.scopeUri) : null));
}

export const CONFIGURATION_SECTION = 'holodeck';
