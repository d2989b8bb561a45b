import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import {
  API_PREFIX,
  AUTH_CREDENTIALS,
  CONTRACT_VERSION,
  ERROR_CODES,
  OPERATION_TAGS,
  type OperationDefinition,
  openApiDocument,
  operationErrorCodes,
  operationList,
  operations,
} from '../src/index.js';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Reads a nested member by keys, failing the test when one is missing. */
function member(value: unknown, ...keys: string[]): JsonObject {
  let current = value;
  for (const key of keys) {
    if (!isObject(current) || !(key in current)) throw new Error(`missing ${keys.join(' > ')} (at ${key})`);
    current = current[key];
  }
  if (!isObject(current)) throw new Error(`${keys.join(' > ')} is not an object`);
  return current;
}

function operationObject(document: JsonObject, operation: OperationDefinition): JsonObject {
  return member(document, 'paths', `${API_PREFIX}${operation.path}`, operation.method.toLowerCase());
}

/** Every `$ref` string anywhere in a value. */
function collectReferences(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) collectReferences(item, found);
  else if (isObject(value)) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') found.push(inner);
      else collectReferences(inner, found);
    }
  }
  return found;
}

function resolvePointer(document: JsonObject, reference: string): unknown {
  if (!reference.startsWith('#/')) return undefined;
  let current: unknown = document;
  for (const part of reference.slice(2).split('/')) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

describe('openApiDocument()', () => {
  const document = openApiDocument();

  it('passes the OpenAPI 3.1 schema validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('the validator does reject a broken copy (the check above can fail)', async () => {
    const broken = structuredClone(document);
    member(broken, 'paths', `${API_PREFIX}/health`, 'get').responses = { '200': { content: {} } };
    const result = await new Validator().validate(broken);
    expect(result.valid).toBe(false);
  });

  it('is OpenAPI 3.1.0 titled with the contract version', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(member(document, 'info').version).toBe(CONTRACT_VERSION);
  });

  it('takes the server URL as an option', () => {
    expect(openApiDocument({ serverUrl: 'https://memory.example.com' }).servers).toEqual([
      { url: 'https://memory.example.com' },
    ]);
  });

  it('has every path+method of the operations table, and nothing else', () => {
    const paths = member(document, 'paths');
    const inDocument = Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(isObject(item) ? item : {}).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const expected = operationList.map((operation) => `${operation.method} ${API_PREFIX}${operation.path}`);
    expect(inDocument.sort()).toEqual(expected.sort());
    // The contract's 37 routes and the 8 extensions (README, "Fields beyond the written contract").
    expect(inDocument).toHaveLength(45);
  });

  it('uses the operation ids, once each', () => {
    const ids = operationList.map((operation) => operationObject(document, operation).operationId);
    expect(ids).toEqual(operationList.map((operation) => operation.id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('defines bearer auth, and the admin token as a scheme of its own', () => {
    expect(member(document, 'components', 'securitySchemes', 'bearerAuth')).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(member(document, 'components', 'securitySchemes', 'adminToken')).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      description: expect.stringContaining('MEMORY_ADMIN_TOKEN'),
    });
  });

  it('documents which routes take the admin token: the keys routes only it, the other management routes either', () => {
    const security = (id: keyof typeof operations) => operationObject(document, operations[id]).security;
    expect(security('management.keys.post')).toEqual([{ adminToken: [] }]);
    expect(security('management.tenants.get')).toEqual([{ bearerAuth: [] }, { adminToken: [] }]);
    expect(security('embeddings.models')).toEqual([{ bearerAuth: [] }, { adminToken: [] }]);
    expect(security('memories.add')).toEqual([{ bearerAuth: [] }]);
    expect(security('health')).toEqual([]);
  });

  it('has a license (MIT, as package.json) and a contact', () => {
    expect(member(document, 'info', 'license')).toEqual({ name: 'MIT', identifier: 'MIT' });
    expect(member(document, 'info', 'contact').name).toEqual(expect.any(String));
  });

  it('declares every tag it uses, with a description, and gives every operation a description and one tag', () => {
    const declared = document.tags as Array<{ name: string; description: string }>;
    expect(declared.map((tag) => tag.name)).toEqual(Object.keys(OPERATION_TAGS));
    for (const tag of declared) expect(tag.description.length, tag.name).toBeGreaterThan(0);
    for (const operation of operationList) {
      const object = operationObject(document, operation);
      expect(object.description, operation.id).toBe(operation.description);
      expect(object.tags, operation.id).toEqual([operation.tag]);
      expect(declared.map((tag) => tag.name)).toContain(operation.tag);
    }
  });

  it('requires a request body only where its schema has a required field', () => {
    const optionalBodies = operationList
      .filter((operation) => operation.inputLocation === 'body')
      .filter((operation) => member(operationObject(document, operation), 'requestBody').required === false)
      .map((operation) => operation.path);
    for (const path of [
      '/context/get',
      '/memories/list',
      '/memories/vacuum',
      '/sessions/start',
      '/skills/files/list',
    ]) {
      expect(optionalBodies).toContain(path);
      // An absent body is read as {}, which these routes accept.
      const operation = operationList.find((each) => each.path === path);
      expect(operation?.input.safeParse({}).success, path).toBe(true);
    }
    for (const operation of operationList.filter((each) => each.inputLocation === 'body')) {
      const body = member(operationObject(document, operation), 'requestBody');
      const schema = member(body, 'content', 'application/json', 'schema');
      const hasRequired = Array.isArray(schema.required) && schema.required.length > 0;
      expect(body.required, operation.id).toBe(hasRequired);
    }
    expect(member(operationObject(document, operations['memories.add']), 'requestBody').required).toBe(true);
  });

  it.each(operationList.map((operation) => [operation.id, operation] as const))(
    '%s: security, success and error responses',
    (_, operation) => {
      const object = operationObject(document, operation);
      const schemes = { apiKey: 'bearerAuth', adminToken: 'adminToken' } as const;
      expect(object.security).toEqual(
        AUTH_CREDENTIALS[operation.auth].map((credential) => ({ [schemes[credential]]: [] })),
      );

      const responses = member(object, 'responses');
      expect(responses).toHaveProperty(String(operation.successStatus));
      for (const status of operation.alternateStatuses ?? []) expect(responses).toHaveProperty(String(status));

      const errorStatuses = new Set(operationErrorCodes(operation).map((code) => ERROR_CODES[code].status));
      for (const status of errorStatuses) {
        const response = member(responses, String(status));
        expect(member(response, 'content', 'application/json', 'schema').$ref).toBe(
          '#/components/schemas/ErrorEnvelope',
        );
      }
      expect(responses).toHaveProperty('429');
      expect(responses).toHaveProperty('500');
      if (operation.auth === 'none') {
        // GET /health takes no input and no key: it can only be rate limited or fail.
        expect(responses).not.toHaveProperty('401');
      } else {
        expect(responses).toHaveProperty('400');
        expect(responses).toHaveProperty('401');
      }
      if (operation.featureFlag) {
        expect(responses).toHaveProperty('403');
        expect(object['x-feature-flag']).toBe(operation.featureFlag);
      }
    },
  );

  it('lists the infrastructure failures on every authenticated route: 502, 503 and 507', () => {
    for (const operation of operationList.filter((each) => each.auth !== 'none')) {
      const responses = member(operationObject(document, operation), 'responses');
      expect(member(responses, '502').description, operation.id).toContain('TENANT_DATABASE_CREDENTIALS_REJECTED');
      expect(member(responses, '503').description, operation.id).toContain('TENANT_DATABASE_UNAVAILABLE');
      expect(member(responses, '503').description, operation.id).toContain('SERVER_RESOURCES_EXHAUSTED');
      expect(member(responses, '507').description, operation.id).toContain('STORAGE_FULL');
    }
  });

  it('puts body inputs in requestBody and query inputs in parameters', () => {
    for (const operation of operationList) {
      const object = operationObject(document, operation);
      if (operation.inputLocation === 'body') {
        expect(member(object, 'requestBody', 'content', 'application/json', 'schema').type, operation.id).toBe(
          'object',
        );
      } else if (operation.stream === 'request') {
        // A streamed body (an import): JSON lines, its options in the query string.
        expect(Object.keys(member(object, 'requestBody', 'content')), operation.id).toEqual(['application/x-ndjson']);
      } else {
        expect(object.requestBody, operation.id).toBeUndefined();
      }
    }
  });

  it('declares sessionId of the snapshot route as a required path parameter', () => {
    const object = operationObject(document, operations['sessions.snapshot']);
    expect(object.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'sessionId', in: 'path', required: true })]),
    );
  });

  it('describes query parameters with their limits (windowHours 1..168)', () => {
    const object = operationObject(document, operations['management.embeddings.observability']);
    expect(object.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'windowHours',
          in: 'query',
          required: false,
          schema: expect.objectContaining({ type: 'integer', minimum: 1, maximum: 168 }),
        }),
      ]),
    );
  });

  it('carries the contract limits into request schemas (memories/add)', () => {
    const schema = member(
      operationObject(document, operations['memories.add']),
      'requestBody',
      'content',
      'application/json',
      'schema',
    );
    expect(schema.required).toEqual(['content']);
    expect(member(schema, 'properties', 'content')).toMatchObject({ minLength: 1, maxLength: 8000 });
    expect(member(schema, 'properties', 'tags')).toMatchObject({
      maxItems: 50,
      items: { minLength: 1, maxLength: 120 },
    });
    // Unknown body fields are refused (docs/architecture.md#the-operations-table), and the document says so.
    expect(schema.additionalProperties).toBe(false);
    expect(member(schema, 'properties', 'scope')).toMatchObject({ additionalProperties: false });
  });

  it('wraps success data in the envelope', () => {
    const schema = member(
      operationObject(document, operations.health),
      'responses',
      '200',
      'content',
      'application/json',
      'schema',
    );
    expect(schema.required).toEqual(['ok', 'data', 'error', 'meta']);
    expect(member(schema, 'properties', 'meta').$ref).toBe('#/components/schemas/Meta');
    expect(member(schema, 'properties', 'data', 'properties')).toHaveProperty('schemaVersion');
  });

  it('every $ref resolves inside the document', () => {
    const references = collectReferences(document);
    expect(references.length).toBeGreaterThan(0);
    for (const reference of new Set(references)) expect(resolvePointer(document, reference), reference).toBeDefined();
  });

  it('tags MCP-exposed operations with their tool name', () => {
    expect(operationObject(document, operations['memories.add'])['x-mcp-tool']).toBe('add_memory');
    expect(operationObject(document, operations['management.keys.get'])).not.toHaveProperty('x-mcp-tool');
  });
});
