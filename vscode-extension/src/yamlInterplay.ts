// Living next to the YAML extension (redhat.vscode-yaml) without showing a problem twice.
//
// The manifest's `yamlValidation` gives the YAML extension our generated schema for agent files,
// so a user without a running holodeck-lsp still gets structural checks and completion. While
// our server runs, it is the one validator of the files it serves: through the YAML extension's
// public API we register a schema contributor that hands those files an empty schema (a schema
// contributor takes precedence over `yamlValidation`), and we hide our own YAML syntax errors,
// which the YAML extension reports for every YAML file anyway.

export const YAML_EXTENSION_ID = 'redhat.vscode-yaml';

/** The URI scheme of our contributed schemas; the YAML extension routes content requests by it. */
export const CONTRIBUTOR_NAME = 'holodeck';
export const EMPTY_SCHEMA_URI = `${CONTRIBUTOR_NAME}://schema/served-by-holodeck-lsp.json`;

/** The schema that asks nothing of a document: no diagnostics, no completion, no hover. */
export const EMPTY_SCHEMA = JSON.stringify({
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Checked by holodeck-lsp',
  description:
    'This file is validated by the HoloDeck language server; the YAML extension leaves it alone.',
});

/** Codes of our diagnostics that mean "the text is not valid YAML", which both would report. */
export const YAML_SYNTAX_CODES: ReadonlySet<string> = new Set(['HL001', 'HL002']);

export interface YamlSchemaApi {
  registerContributor(
    schema: string,
    requestSchema: (resource: string) => string | undefined,
    requestSchemaContent: (uri: string) => Promise<string> | string,
    label?: string,
  ): boolean;
}

export function yamlSchemaApi(extensionApi: unknown): YamlSchemaApi | undefined {
  const candidate = extensionApi as Partial<YamlSchemaApi> | undefined;
  return typeof candidate?.registerContributor === 'function' ? (candidate as YamlSchemaApi) : undefined;
}

/**
 * Registers the contributor. `servedByUs(resource)` says, at each request, whether our server is
 * running and serves that document; when it does not, the YAML extension falls back to the
 * manifest's schema association.
 */
export function registerSchemaContributor(
  api: YamlSchemaApi,
  servedByUs: (resource: string) => boolean,
): boolean {
  return api.registerContributor(
    CONTRIBUTOR_NAME,
    (resource) => (servedByUs(resource) ? EMPTY_SCHEMA_URI : undefined),
    () => EMPTY_SCHEMA,
    'HoloDeck (checked by holodeck-lsp)',
  );
}

interface CodedDiagnostic {
  code?: string | number | { value: string | number; target: unknown };
}

function codeOf(diagnostic: CodedDiagnostic): string | undefined {
  const code = diagnostic.code;
  if (code === undefined) {
    return undefined;
  }
  return typeof code === 'object' ? String(code.value) : String(code);
}

/** Our diagnostics minus the YAML syntax errors the YAML extension shows too. */
export function withoutYamlExtensionDuplicates<T extends CodedDiagnostic>(
  diagnostics: readonly T[],
  yamlExtensionValidates: boolean,
): T[] {
  if (!yamlExtensionValidates) {
    return [...diagnostics];
  }
  return diagnostics.filter((diagnostic) => !YAML_SYNTAX_CODES.has(codeOf(diagnostic) ?? ''));
}
