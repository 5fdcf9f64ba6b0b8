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
}

export const state: VscodeState = {
  configuration: {},
  isTrusted: true,
  workspaceFolders: [],
  extensions: {},
};

export function resetState(): void {
  state.configuration = {};
  state.isTrusted = true;
  state.workspaceFolders = [];
  state.extensions = {};
}

class Uri {
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

const vscode = {
  Uri,
  workspace: {
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
