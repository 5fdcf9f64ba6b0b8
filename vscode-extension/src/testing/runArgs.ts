// Which `holodeck-lsp run` a test run is: the suite, the case (up to a turn) chosen, the
// recording replayed or written, and the earlier run's report it is compared with. Pure.

import * as path from 'node:path';

export type RunMode = 'live' | 'replay' | 'record';

/** The recording `run` and the server's `run.replay` use when nothing else is set. */
export const DEFAULT_RECORDING = 'replay.jsonl';

export interface Selection {
  caseIndex?: number;
  upToTurn?: number;
}

/**
 * The recording of a suite: `holodeck.run.replay` when set (relative to the suite's folder, as
 * the server's `run.replay` is), else `replay.jsonl` beside the suite.
 */
export function recordingFor(agentFile: string, setting: string): string {
  return besideSuite(agentFile, setting.trim() === '' ? DEFAULT_RECORDING : setting.trim());
}

function besideSuite(agentFile: string, chosen: string): string {
  return path.isAbsolute(chosen) ? chosen : path.join(path.dirname(agentFile), chosen);
}

/**
 * The report a suite's runs compare with: `holodeck.run.baseline` (relative to the suite's
 * folder, as the server's `run.baseline` is); undefined when it is empty.
 */
export function baselineFor(agentFile: string, setting: string): string | undefined {
  const chosen = setting.trim();
  return chosen === '' ? undefined : besideSuite(agentFile, chosen);
}

export function runArguments(agentFile: string, selection: Selection, mode: RunMode, recording: string, baseline?: string): string[] {
  const args = ['run', agentFile, '--events', '-', '-q'];
  if (selection.caseIndex !== undefined) {
    args.push('--case', String(selection.caseIndex));
    if (selection.upToTurn !== undefined) {
      args.push('--up-to-turn', String(selection.upToTurn));
    }
  }
  if (mode === 'replay') {
    args.push('--replay', recording);
  } else if (mode === 'record') {
    args.push('--record', recording);
  }
  if (baseline !== undefined) {
    args.push('--baseline', baseline);
  }
  return args;
}
