// The documents the client hands to the server: YAML files matching `holodeck.files.include`.

export interface YamlFileFilter {
  scheme: 'file';
  language: 'yaml';
  pattern: string;
}

export function documentSelector(include: readonly string[]): YamlFileFilter[] {
  return include.map((pattern) => ({ scheme: 'file', language: 'yaml', pattern }));
}
