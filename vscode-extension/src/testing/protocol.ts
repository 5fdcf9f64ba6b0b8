// The server's requests for the Testing view, as they travel (docs/editors.md): no vscode here, so
// the protocol test can use the same types against the real server.

export const TEST_ITEMS = 'holodeck/testItems';
export const FIELD_LOCATIONS = 'holodeck/fieldLocations';
export const RUN_ARGUMENTS = 'holodeck/runArguments';

/** live: call the model; replay: answer every turn from the suite's recording; record: write it. */
export type RunMode = 'live' | 'replay' | 'record';

/** The answer of `holodeck/runArguments`: the command line the server's own lenses run. */
export interface RunArguments {
  /** The arguments after the program (`run AGENT --events - -q ...`). */
  args: string[];
  cwd: string;
  /** The suite's recording, replayed or recorded. */
  recording: string;
}

export interface ServerRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

/** One answer of `holodeck/fieldLocations`: where a field path of the run events stands. */
export interface ServerLocation {
  uri: string;
  range: ServerRange;
}

/** A case's or turn's record over the last runs kept beside its agent (`results/<slug>/`). */
export interface ServerHistory {
  runs: number;
  passed: number;
  /** It both passed and failed. */
  flaky: boolean;
  /** When the failing it ends on began (UTC), else null. */
  failingSince: string | null;
  /** `passed 17 of the last 20 run(s); flaky`. */
  text: string;
}

export interface ServerTurn {
  index: number;
  label: string;
  detail: string;
  range: ServerRange;
  history?: ServerHistory;
}

export interface ServerCase {
  index: number;
  label: string;
  detail: string;
  range: ServerRange;
  turns: ServerTurn[];
  history?: ServerHistory;
}

/** The answer of `holodeck/testItems`; null when the text does not parse (keep what is shown). */
export interface SuiteItems {
  /** The document the ranges are in: the agent's, or its `test_cases_file`. */
  uri: string;
  /** The suite's recording (`holodeck.run.replay`, else `replay.jsonl` beside the suite). */
  recording: string;
  cases: ServerCase[];
}
