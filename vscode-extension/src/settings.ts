// The extension's settings, typed, with every invalid value replaced by its default.
// Pure: it reads through `ConfigReader`, which the `vscode` configuration object satisfies.

export type GraderImport = 'never' | 'trusted';
export type SeverityName = 'error' | 'warning' | 'information' | 'hint' | 'off';
/** Which server runs: the one bundled in the extension, or the Python environment's own. */
export type ImportStrategy = 'useBundled' | 'fromEnvironment';

export interface Settings {
  /** Program and first arguments; empty means "discover holodeck-lsp". */
  serverCommand: string[];
  serverArgs: string[];
  importStrategy: ImportStrategy;
  include: string[];
  graderImport: GraderImport;
  severity: Record<string, SeverityName>;
  yamlDeduplicate: boolean;
  /** The suite's recording ("Run with replay", "Record", the lenses); empty: the server's default, `replay.jsonl` beside the suite. */
  runReplay: string;
  /** An earlier run's report that runs compare with (a regressed turn is marked); empty: none. */
  runBaseline: string;
  /** Seconds one validation may take (the server's `validation.timeLimit`). */
  validationTimeLimit: number;
}

/** What `vscode.workspace.getConfiguration('holodeck')` offers, reduced to what we use. */
export interface ConfigReader {
  get(section: string): unknown;
}

export const DEFAULT_INCLUDE: readonly string[] = [
  '**/agent.yaml',
  '**/agent.yml',
  '**/*.agent.yaml',
  '**/*.agent.yml',
];

export const DEFAULT_SETTINGS: Readonly<Settings> = {
  serverCommand: [],
  serverArgs: ['serve'],
  importStrategy: 'useBundled',
  include: [...DEFAULT_INCLUDE],
  graderImport: 'never',
  severity: {},
  yamlDeduplicate: true,
  runReplay: '',
  runBaseline: '',
  validationTimeLimit: 10,
};

/** The seconds `holodeck.validation.timeLimit` may take (the server refuses others). */
export const TIME_LIMIT_RANGE: readonly [number, number] = [0.1, 300];

const SEVERITIES: readonly SeverityName[] = ['error', 'warning', 'information', 'hint', 'off'];
const GRADER_IMPORTS: readonly GraderImport[] = ['never', 'trusted'];
const IMPORT_STRATEGIES: readonly ImportStrategy[] = ['useBundled', 'fromEnvironment'];

export interface SettingsResult {
  settings: Settings;
  /** One line per ignored value, for the output channel. */
  problems: string[];
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[]): value is T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value);
}

export function readSettings(config: ConfigReader): SettingsResult {
  const problems: string[] = [];
  const invalid = (key: string, value: unknown): void => {
    problems.push(`holodeck.${key}: ignoring invalid value ${JSON.stringify(value)}`);
  };

  let serverCommand = DEFAULT_SETTINGS.serverCommand;
  const command = config.get('server.command');
  if (typeof command === 'string') {
    serverCommand = command.trim() === '' ? [] : [command.trim()];
  } else if (isStringArray(command) && command.every((part) => part.trim() !== '')) {
    serverCommand = command;
  } else if (command !== undefined && command !== null) {
    invalid('server.command', command);
  }

  let serverArgs = DEFAULT_SETTINGS.serverArgs;
  const args = config.get('server.args');
  if (isStringArray(args)) {
    serverArgs = args;
  } else if (args !== undefined && args !== null) {
    invalid('server.args', args);
  }

  let importStrategy = DEFAULT_SETTINGS.importStrategy;
  const strategy = config.get('server.importStrategy');
  if (oneOf(strategy, IMPORT_STRATEGIES)) {
    importStrategy = strategy;
  } else if (strategy !== undefined && strategy !== null) {
    invalid('server.importStrategy', strategy);
  }

  let include = DEFAULT_SETTINGS.include;
  const includeValue = config.get('files.include');
  if (isStringArray(includeValue) && includeValue.length > 0) {
    include = includeValue.filter((pattern) => pattern.trim() !== '');
  } else if (includeValue !== undefined && includeValue !== null) {
    invalid('files.include', includeValue);
  }

  let graderImport = DEFAULT_SETTINGS.graderImport;
  const importValue = config.get('graders.import');
  if (oneOf(importValue, GRADER_IMPORTS)) {
    graderImport = importValue;
  } else if (importValue !== undefined && importValue !== null) {
    invalid('graders.import', importValue);
  }

  const severity: Record<string, SeverityName> = {};
  const severityValue = config.get('severity');
  if (typeof severityValue === 'object' && severityValue !== null && !Array.isArray(severityValue)) {
    for (const [code, level] of Object.entries(severityValue as Record<string, unknown>)) {
      if (oneOf(level, SEVERITIES)) {
        severity[code] = level;
      } else {
        invalid(`severity.${code}`, level);
      }
    }
  } else if (severityValue !== undefined && severityValue !== null) {
    invalid('severity', severityValue);
  }

  let yamlDeduplicate = DEFAULT_SETTINGS.yamlDeduplicate;
  const dedupe = config.get('yamlExtension.deduplicate');
  if (typeof dedupe === 'boolean') {
    yamlDeduplicate = dedupe;
  } else if (dedupe !== undefined && dedupe !== null) {
    invalid('yamlExtension.deduplicate', dedupe);
  }

  const filePath = (key: string): string => {
    const value = config.get(key);
    if (typeof value === 'string') {
      return value.trim();
    }
    if (value !== undefined && value !== null) {
      invalid(key, value);
    }
    return '';
  };
  const runReplay = filePath('run.replay');
  const runBaseline = filePath('run.baseline');

  let validationTimeLimit = DEFAULT_SETTINGS.validationTimeLimit;
  const limit = config.get('validation.timeLimit');
  const [low, high] = TIME_LIMIT_RANGE;
  if (typeof limit === 'number' && limit >= low && limit <= high) {
    validationTimeLimit = limit;
  } else if (limit !== undefined && limit !== null) {
    invalid('validation.timeLimit', limit);
  }

  return {
    settings: {
      serverCommand,
      serverArgs,
      importStrategy,
      include,
      graderImport,
      severity,
      yamlDeduplicate,
      runReplay,
      runBaseline,
      validationTimeLimit,
    },
    problems,
  };
}

/** Settings whose change needs a new server process (the rest are sent as configuration). */
// (`holodeck.trace.server` is applied by the language client itself.)
export const RESTART_SECTIONS: readonly string[] = ['holodeck.server', 'holodeck.files.include'];
