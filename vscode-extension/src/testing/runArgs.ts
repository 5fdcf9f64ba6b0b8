// Which `holodeck-lsp run` a test run is: the suite, the case (up to a turn) chosen, and the
// recording replayed or written. Pure.

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
  const chosen = setting.trim() === '' ? DEFAULT_RECORDING : setting.trim();
  return path.isAbsolute(chosen) ? chosen : path.join(path.dirname(agentFile), chosen);
}

export function runArguments(agentFile: string, selection: Selection, mode: RunMode, recording: string): string[] {
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
  return args;
}
