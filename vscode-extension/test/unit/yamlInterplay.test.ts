import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  EMPTY_SCHEMA,
  EMPTY_SCHEMA_URI,
  registerSchemaContributor,
  withoutYamlExtensionDuplicates,
  yamlSchemaApi,
} from '../../src/yamlInterplay';

describe('interplay with the YAML extension', () => {
  it('hands an empty schema to the files our server serves, and nothing to the others', async () => {
    const calls: unknown[][] = [];
    const api = yamlSchemaApi({
      registerContributor: (...args: unknown[]) => {
        calls.push(args);
        return true;
      },
    });
    assert.ok(api);
    const served = new Set(['file:///suite/agent.yaml']);
    assert.equal(registerSchemaContributor(api, (resource) => served.has(resource)), true);

    const [name, requestSchema, requestContent] = calls[0] as [
      string,
      (resource: string) => string | undefined,
      (uri: string) => string,
    ];
    assert.equal(name, 'holodeck');
    assert.equal(requestSchema('file:///suite/agent.yaml'), EMPTY_SCHEMA_URI);
    assert.equal(requestSchema('file:///suite/docker-compose.yaml'), undefined);
    assert.equal(EMPTY_SCHEMA_URI.startsWith('holodeck://'), true);
    assert.deepEqual(JSON.parse(await requestContent(EMPTY_SCHEMA_URI)), JSON.parse(EMPTY_SCHEMA));
    assert.deepEqual(Object.keys(JSON.parse(EMPTY_SCHEMA)).sort(), ['$schema', 'description', 'title']);
  });

  it('ignores an extension without the schema API', () => {
    assert.equal(yamlSchemaApi(undefined), undefined);
    assert.equal(yamlSchemaApi({ somethingElse: true }), undefined);
  });

  it('hides only our YAML syntax errors, and only while the YAML extension validates', () => {
    const diagnostics = [
      { code: 'HL001', message: 'not valid YAML' },
      { code: { value: 'HL002', target: 'docs' }, message: 'tab' },
      { code: 'HL401', message: 'bad regex' },
      { message: 'no code' },
    ];
    assert.deepEqual(withoutYamlExtensionDuplicates(diagnostics, true), [
      { code: 'HL401', message: 'bad regex' },
      { message: 'no code' },
    ]);
    assert.deepEqual(withoutYamlExtensionDuplicates(diagnostics, false), diagnostics);
  });
});
