// The one object the server receives, both as `initializationOptions` and as the
// `holodeck` section of `workspace/configuration`, with the workspace-trust rule applied.

import type { GraderImport, SeverityName, Settings } from './settings';

export interface ServerConfiguration {
  files: { include: string[] };
  graders: { import: GraderImport };
  workspaceTrusted: boolean;
  severity: Record<string, SeverityName>;
}

/** The trust rule: a restricted workspace never imports graders, whatever the setting says. */
export function effectiveGraderImport(setting: GraderImport, workspaceTrusted: boolean): GraderImport {
  return workspaceTrusted ? setting : 'never';
}

export function serverConfiguration(settings: Settings, workspaceTrusted: boolean): ServerConfiguration {
  return {
    files: { include: [...settings.include] },
    graders: { import: effectiveGraderImport(settings.graderImport, workspaceTrusted) },
    workspaceTrusted,
    severity: { ...settings.severity },
  };
}
