// A machine for the discovery unit tests: Ada's, with these executable files and nothing else.
import type { DiscoveryContext } from '../../src/serverCommand';

export function discoveryContext(executables: string[], overrides: Partial<DiscoveryContext> = {}): DiscoveryContext {
  const present = new Set(executables);
  return {
    pathVariable: '/usr/local/bin:/usr/bin',
    platform: 'linux',
    isExecutableFile: (file) => present.has(file),
    workspaceTrusted: true,
    workspaceFolders: ['/home/ada/suite'],
    ...overrides,
  };
}
