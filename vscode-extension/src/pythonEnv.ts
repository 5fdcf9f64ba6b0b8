// The Python environment selected in the Python extension (ms-python.python), read through
// its public API when that extension is installed. Everything else treats it as optional.

import type { PythonEnvironment } from './serverCommand';

export const PYTHON_EXTENSION_ID = 'ms-python.python';

interface Disposable {
  dispose(): unknown;
}

/** The part of `vscode.extensions` this module uses. */
export interface ExtensionRegistry {
  getExtension(id: string): { isActive: boolean; activate(): Thenable<unknown>; exports: unknown } | undefined;
}

/** The part of the Python extension's `environments` API this module uses. */
interface EnvironmentsApi {
  getActiveEnvironmentPath(resource?: unknown): { path: string } | undefined;
  resolveEnvironment(
    env: { path: string } | string,
  ): Thenable<{ executable?: { uri?: { fsPath: string } } } | undefined>;
  onDidChangeActiveEnvironmentPath?: (listener: () => void) => Disposable;
}

function environmentsApi(extensionApi: unknown): EnvironmentsApi | undefined {
  const environments = (extensionApi as { environments?: Partial<EnvironmentsApi> } | undefined)?.environments;
  if (
    typeof environments?.getActiveEnvironmentPath === 'function' &&
    typeof environments.resolveEnvironment === 'function'
  ) {
    return environments as EnvironmentsApi;
  }
  return undefined;
}

async function loadApi(registry: ExtensionRegistry): Promise<EnvironmentsApi | undefined> {
  const extension = registry.getExtension(PYTHON_EXTENSION_ID);
  if (extension === undefined) {
    return undefined;
  }
  const api = extension.isActive ? extension.exports : await extension.activate();
  return environmentsApi(api ?? extension.exports);
}

/** The selected environment's interpreter, or undefined (no Python extension, none selected). */
export async function selectedPythonEnvironment(
  registry: ExtensionRegistry,
  resource?: unknown,
): Promise<PythonEnvironment | undefined> {
  try {
    const api = await loadApi(registry);
    const active = api?.getActiveEnvironmentPath(resource);
    if (api === undefined || active === undefined) {
      return undefined;
    }
    const resolved = await api.resolveEnvironment(active);
    const executable = resolved?.executable?.uri?.fsPath;
    return executable ? { executable } : undefined;
  } catch {
    // A broken or older Python extension must not keep our server from starting.
    return undefined;
  }
}

/** Calls `listener` when the user selects another environment; a no-op without the extension. */
export async function onPythonEnvironmentChange(
  registry: ExtensionRegistry,
  listener: () => void,
): Promise<Disposable | undefined> {
  try {
    const api = await loadApi(registry);
    return api?.onDidChangeActiveEnvironmentPath?.(listener);
  } catch {
    return undefined;
  }
}
