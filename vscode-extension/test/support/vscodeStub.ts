// A stand-in for the `vscode` module, installed before the code under test is loaded, so the
// modules that read VS Code's state can run under node's test runner.

import Module from 'node:module';

export interface FakeExtension {
  isActive: boolean;
  exports: unknown;
  activate(): Promise<unknown>;
}

export interface VscodeState {
  configuration: Record<string, Record<string, unknown>>;
  isTrusted: boolean;
  workspaceFolders: string[];
  extensions: Record<string, FakeExtension>;
  /** What `workspace.findFiles` answers, by glob pattern. */
  files: Record<string, string[]>;
  /** Test controllers created through `tests.createTestController`. */
  controllers: FakeController[];
  /** File system watchers created through `workspace.createFileSystemWatcher`. */
  watchers: FakeWatcher[];
}

export interface FakeWatcher {
  pattern: string;
  created: Emitter<Uri>;
  changed: Emitter<Uri>;
  deleted: Emitter<Uri>;
  disposed: boolean;
}

export const state: VscodeState = {
  configuration: {},
  isTrusted: true,
  workspaceFolders: [],
  extensions: {},
  files: {},
  controllers: [],
  watchers: [],
};

/** A minimal event emitter: `event` is what VS Code's `onDid...` functions are. */
export class Emitter<T> {
  private listeners: ((value: T) => void)[] = [];
  readonly event = (listener: (value: T) => void): { dispose(): void } => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(value: T): void {
    [...this.listeners].forEach((listener) => listener(value));
  }
}

export const events = {
  grantTrust: new Emitter<void>(),
  openDocument: new Emitter<unknown>(),
  changeDocument: new Emitter<unknown>(),
  changeConfiguration: new Emitter<unknown>(),
};

export function resetState(): void {
  state.configuration = {};
  state.isTrusted = true;
  state.workspaceFolders = [];
  state.extensions = {};
  state.files = {};
  state.controllers = [];
  state.watchers = [];
}

class Uri {
  readonly scheme = 'file';
  private constructor(readonly fsPath: string) {}
  static file(fsPath: string): Uri {
    return new Uri(fsPath);
  }
  static parse(value: string): Uri {
    return new Uri(value.replace(/^file:\/\//, ''));
  }
  toString(): string {
    return `file://${this.fsPath}`;
  }
}

class Position {
  constructor(readonly line: number, readonly character: number) {}
}

class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(startLine: number, startCharacter: number, endLine: number, endCharacter: number) {
    this.start = new Position(startLine, startCharacter);
    this.end = new Position(endLine, endCharacter);
  }
}

class Location {
  constructor(readonly uri: Uri, readonly range: Range) {}
}

class TestMessage {
  expectedOutput?: string;
  actualOutput?: string;
  location?: Location;
  constructor(readonly message: string) {}
  static diff(message: string, expected: string, actual: string): TestMessage {
    const made = new TestMessage(message);
    made.expectedOutput = expected;
    made.actualOutput = actual;
    return made;
  }
}

/** A test item collection, keyed by id, in insertion order. */
export class FakeCollection {
  private readonly byId = new Map<string, FakeItem>();
  get size(): number {
    return this.byId.size;
  }
  add(item: FakeItem): void {
    this.byId.set(item.id, item);
  }
  delete(id: string): void {
    this.byId.delete(id);
  }
  get(id: string): FakeItem | undefined {
    return this.byId.get(id);
  }
  replace(items: FakeItem[]): void {
    this.byId.clear();
    items.forEach((item) => this.add(item));
  }
  forEach(callback: (item: FakeItem) => void): void {
    [...this.byId.values()].forEach(callback);
  }
}

export class TestTag {
  constructor(readonly id: string) {}
}

export class FakeItem {
  range?: Range;
  description?: string;
  tags: TestTag[] = [];
  canResolveChildren = false;
  readonly children = new FakeCollection();
  constructor(readonly id: string, readonly label: string, readonly uri: Uri | undefined) {}
}

/** Every call a test run received, as `[method, item id, detail]`. */
export class FakeRun {
  readonly calls: [string, string, unknown?][] = [];
  output = '';
  ended = false;
  enqueued(item: FakeItem): void {
    this.calls.push(['enqueued', item.id]);
  }
  started(item: FakeItem): void {
    this.calls.push(['started', item.id]);
  }
  passed(item: FakeItem, duration?: number): void {
    this.calls.push(['passed', item.id, duration]);
  }
  skipped(item: FakeItem): void {
    this.calls.push(['skipped', item.id]);
  }
  failed(item: FakeItem, messages: TestMessage[], duration?: number): void {
    this.calls.push(['failed', item.id, { messages, duration }]);
  }
  errored(item: FakeItem, message: TestMessage): void {
    this.calls.push(['errored', item.id, message]);
  }
  appendOutput(text: string): void {
    this.output += text;
  }
  end(): void {
    this.ended = true;
  }
}

export interface FakeProfile {
  label: string;
  isDefault: boolean;
  runHandler: (request: unknown, token: unknown) => Promise<void>;
  disposed: boolean;
  dispose(): void;
}

export class FakeController {
  readonly items = new FakeCollection();
  readonly profiles: FakeProfile[] = [];
  readonly runs: FakeRun[] = [];
  resolveHandler?: (item: FakeItem | undefined) => Promise<void>;
  refreshHandler?: () => Promise<void>;
  disposed = false;
  constructor(readonly id: string, readonly label: string) {}
  createTestItem(id: string, label: string, uri?: Uri): FakeItem {
    return new FakeItem(id, label, uri);
  }
  createRunProfile(label: string, _kind: number, runHandler: FakeProfile['runHandler'], isDefault = false): FakeProfile {
    const profile: FakeProfile = {
      label,
      isDefault,
      runHandler,
      disposed: false,
      dispose() {
        this.disposed = true;
      },
    };
    this.profiles.push(profile);
    return profile;
  }
  createTestRun(): FakeRun {
    const run = new FakeRun();
    this.runs.push(run);
    return run;
  }
  dispose(): void {
    this.disposed = true;
  }
}

const vscode = {
  Uri,
  Position,
  Range,
  Location,
  TestMessage,
  TestTag,
  TestRunProfileKind: { Run: 1, Debug: 2, Coverage: 3 },
  tests: {
    createTestController(id: string, label: string): FakeController {
      const controller = new FakeController(id, label);
      state.controllers.push(controller);
      return controller;
    },
  },
  languages: {
    match(selector: { pattern: string }[], document: { uri: Uri }): number {
      const suffixes = selector.map((s) => s.pattern.replace(/^\*\*\/(\*)?/, ''));
      return suffixes.some((suffix) => document.uri.fsPath.endsWith(suffix)) ? 10 : 0;
    },
  },
  workspace: {
    onDidGrantWorkspaceTrust: events.grantTrust.event,
    onDidOpenTextDocument: events.openDocument.event,
    onDidChangeTextDocument: events.changeDocument.event,
    onDidChangeConfiguration: events.changeConfiguration.event,
    textDocuments: [] as { uri: Uri }[],
    createFileSystemWatcher(pattern: string) {
      const watcher = {
        pattern,
        created: new Emitter<Uri>(),
        changed: new Emitter<Uri>(),
        deleted: new Emitter<Uri>(),
        disposed: false,
        get onDidCreate() {
          return watcher.created.event;
        },
        get onDidChange() {
          return watcher.changed.event;
        },
        get onDidDelete() {
          return watcher.deleted.event;
        },
        dispose() {
          watcher.disposed = true;
        },
      };
      state.watchers.push(watcher);
      return watcher;
    },
    async findFiles(pattern: string): Promise<Uri[]> {
      return (state.files[pattern] ?? []).map((file) => Uri.file(file));
    },
    asRelativePath(uri: Uri): string {
      const folder = state.workspaceFolders.find((f) => uri.fsPath.startsWith(`${f}/`));
      return folder === undefined ? uri.fsPath : uri.fsPath.slice(folder.length + 1);
    },
    getConfiguration(section: string) {
      return {
        get(key: string): unknown {
          return state.configuration[section]?.[key];
        },
      };
    },
    get isTrusted(): boolean {
      return state.isTrusted;
    },
    get workspaceFolders() {
      return state.workspaceFolders.map((folder, index) => ({ uri: Uri.file(folder), name: folder, index }));
    },
  },
  extensions: {
    getExtension(id: string): FakeExtension | undefined {
      return state.extensions[id];
    },
  },
};

type Load = (request: string, parent: unknown, isMain: boolean) => unknown;
const moduleWithLoad = Module as unknown as { _load: Load };
const originalLoad = moduleWithLoad._load;
moduleWithLoad._load = function (request: string, parent: unknown, isMain: boolean): unknown {
  if (request === 'vscode') {
    return vscode;
  }
  return originalLoad.call(this, request, parent, isMain);
};
