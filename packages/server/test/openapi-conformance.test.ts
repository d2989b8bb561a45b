import { API_PREFIX, openApiDocument, operationList } from '@memory-service/contract';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestServer, TEST_KEY, type TestServer } from './harness.js';

// Issue 26, part 2: the OpenAPI document says exactly what the server sends and refuses. Every response of a run
// over every operation (successes and errors) is validated against the document with ajv, with zero violations;
// and a set of requests, each judged valid or invalid by the document's own request schema, gets 400 exactly when
// the document calls it invalid.

// ajv-formats is CommonJS: its function is the module's default export, or that export's `default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

const document = openApiDocument() as {
  paths: Record<string, Record<string, OperationObject>>;
};
type JsonSchema = Record<string, unknown>;
interface OperationObject {
  operationId: string;
  parameters: Array<{ name: string; in: string; required: boolean; schema: JsonSchema }>;
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
}

const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
addFormats(ajv);
ajv.addSchema(document, 'openapi');

/** A JSON pointer into the document, escaped. */
function pointer(...parts: string[]): string {
  return `openapi#/${parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
}

const validators = new Map<string, ValidateFunction>();
function validatorAt(...parts: string[]): ValidateFunction {
  const ref = pointer(...parts);
  let validate = validators.get(ref);
  if (validate === undefined) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  return validate;
}

/** The document's path and operation object of a concrete request path (`/memories/abc/history`). */
function operationOf(method: string, route: string): { path: string; operation: OperationObject } {
  const pathname = `${API_PREFIX}${route.split('?')[0]}`;
  for (const [path, item] of Object.entries(document.paths)) {
    const operation = item[method.toLowerCase()];
    if (operation === undefined) continue;
    const pattern = new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (pattern.test(pathname)) return { path, operation };
  }
  throw new Error(`no operation in the document for ${method} ${pathname}`);
}

interface Violation {
  request: string;
  status: number;
  problem: string;
}

let server: TestServer;
const violations: Violation[] = [];
const covered = new Set<string>();

/**
 * Sends a request and validates the answer against the document: the status must be one the operation documents,
 * and the body the schema of that status (each line of a JSON-lines answer, the line schema).
 */
async function send(
  method: string,
  route: string,
  body?: unknown,
  options: { key?: string | null; raw?: string; contentType?: string } = {},
) {
  const key = options.key === undefined ? TEST_KEY : options.key;
  const headers: Record<string, string> = {};
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let payload: string | undefined = options.raw;
  if (body !== undefined) payload = JSON.stringify(body);
  if (payload !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  const response = await server.app.request(`${API_PREFIX}${route}`, { method, headers, body: payload });
  const text = await response.text();
  const { path, operation } = operationOf(method, route);
  covered.add(operation.operationId);
  const request = `${method} ${route}`;
  const documented = operation.responses[String(response.status)];
  if (documented === undefined) {
    violations.push({ request, status: response.status, problem: `status not documented: ${text.slice(0, 200)}` });
    return { status: response.status, body: safeJson(text) };
  }
  const contentType = response.headers.get('content-type') ?? '';
  const mediaType = Object.keys(documented.content ?? {}).find((type) => contentType.startsWith(type));
  if (mediaType === undefined) {
    violations.push({ request, status: response.status, problem: `content type ${contentType} not documented` });
    return { status: response.status, body: safeJson(text) };
  }
  const validate = validatorAt(
    'paths',
    path,
    method.toLowerCase(),
    'responses',
    String(response.status),
    'content',
    mediaType,
    'schema',
  );
  const documents = mediaType === 'application/x-ndjson' ? text.split('\n').filter((line) => line !== '') : [text];
  for (const each of documents) {
    if (!validate(JSON.parse(each))) {
      for (const error of validate.errors ?? []) {
        violations.push({
          request,
          status: response.status,
          problem: `${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`,
        });
      }
    }
  }
  return { status: response.status, body: safeJson(text) as { ok: boolean; data: any; error: any } };
}

function safeJson(text: string): any {
  try {
    return JSON.parse(text.split('\n')[0] ?? '');
  } catch {
    return text;
  }
}

const admin = { key: ADMIN_TOKEN };

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('every response of a run over every operation matches the OpenAPI document', () => {
  it('control: the validator refuses a field the document does not name (the check can fail)', async () => {
    const validate = validatorAt(
      'paths',
      `${API_PREFIX}/context/get`,
      'post',
      'responses',
      '200',
      'content',
      'application/json',
      'schema',
    );
    const answer = (await server.call('POST', '/context/get', { query: 'x' })).body;
    expect(validate(answer)).toBe(true);
    expect(validate({ ...answer, data: { ...answer.data, trace: { ...answer.data?.trace, undocumented: 1 } } })).toBe(
      false,
    );
  });

  it('runs every operation, successes and errors, with zero violations', async () => {
    const scope = { userId: 'ada', projectId: 'apollo' };
    await send('GET', '/health', undefined, { key: null });
    // Memories: every write, with the fields that add answers.
    const ids: string[] = [];
    for (const body of [
      { content: 'Always answer in British English', type: 'rule' },
      { content: 'Payments retry three times, since last week', type: 'fact', tags: ['payments'], scope },
      { content: 'Refactoring the payment retry loop', layer: 'working', scope },
      { content: 'We chose libSQL for tenant databases', type: 'decision', metadata: { a: 1 }, scope },
      { content: 'Payments retry four times', type: 'fact', tags: ['payments'], scope },
      { content: 'Payments retry three times, since last week', type: 'fact', tags: ['payments'], scope },
    ]) {
      const added = await send('POST', '/memories/add', body);
      ids.push(added.body.data.id);
    }
    await server.indexed();
    for (const strategy of ['lexical', 'hybrid', 'baseline', 'hybrid_graph', 'semantic']) {
      await send('POST', '/context/get', { query: 'payment retries last week', strategy, graphDepth: 2, scope });
      await send('POST', '/memories/search', { query: 'payment retries', strategy, scope });
      await send('POST', '/graph/trace', { query: 'payment retries', strategy, scope });
    }
    await send('POST', '/context/get', {});
    await send('POST', '/context/get', { mode: 'rules_only' });
    const page = await send('POST', '/memories/list', { limit: 2, scope });
    await send('POST', '/memories/list', { cursor: page.body.data.nextCursor, tags: 'payments', scope });
    await send('GET', `/memories/${ids[1]}?userId=ada&projectId=apollo`);
    await send('POST', '/memories/edit', { id: ids[1], content: 'Payments retry five times', scope });
    await send('GET', `/memories/${ids[1]}/history?userId=ada&projectId=apollo`);
    await send('POST', '/memories/consolidate', { dryRun: true, scope });
    await send('POST', '/memories/consolidate', { dryRun: false, scope });
    await send('POST', '/memories/forget', { id: ids[3], scope });
    await send('POST', '/memories/restore', { id: ids[3], scope });
    await send('POST', '/memories/bulk-forget', { filters: { types: ['decision'] }, dryRun: true, scope });
    await send('POST', '/memories/bulk-forget', { filters: { pattern: 'We chose*' }, scope });
    await send('POST', '/memories/bulk-forget', { filters: { all: true }, dryRun: true, scope });
    await send('POST', '/memories/vacuum', { scope });
    // Skills and sessions.
    await send('POST', '/skills/files/upsert', {
      path: 'deploy.md',
      content: '# Deploy\nStaging first.',
      procedureKey: 'deploy',
    });
    await send('POST', '/skills/files/list', { limit: 1 });
    const started = await send('POST', '/sessions/start', { title: 'Release', client: 'test', scope });
    const sessionId = started.body.data.sessionId;
    for (const [role, content] of [
      ['user', 'Run the tests, then deploy to staging'],
      ['assistant', 'Tests pass; deployed to staging'],
    ]) {
      await send('POST', '/sessions/checkpoint', { sessionId, role, content, scope });
    }
    await send('POST', '/sessions/end', { sessionId, status: 'closed', scope });
    await send('POST', '/sessions/checkpoint', { sessionId, content: 'late', scope });
    await send('GET', `/sessions/${sessionId}/snapshot?userId=ada&projectId=apollo`);
    await send('GET', '/sessions?userId=ada&projectId=apollo');
    await send('GET', `/sessions/${sessionId}/events?userId=ada&projectId=apollo`);
    await send('POST', '/skills/files/promote', { sessionId, path: 'release.md', scope });
    await send('POST', '/skills/files/promote', { sessionId, path: 'release.md', scope });
    await send('POST', '/skills/files/delete', { path: 'deploy.md' });
    await send('POST', '/context/get', { query: 'release', scope });
    // Embeddings, graph, rollout.
    await send('GET', '/embeddings/models');
    await send('GET', '/embeddings/models?embeddingModel=local/hash-384', undefined, admin);
    await send('GET', '/graph/status?topNodesLimit=3');
    await send('POST', '/graph/status', { topNodesLimit: 3, scope });
    await send('GET', '/graph/rollout');
    await send('POST', '/graph/rollout', { mode: 'shadow' });
    await send('PATCH', '/graph/rollout', { mode: 'canary' });
    await send('PATCH', '/graph/rollout', { mode: 'off' });
    // Management.
    await send('GET', '/management/keys', undefined, admin);
    const key = await send(
      'POST',
      '/management/keys',
      { expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
      admin,
    );
    await send('DELETE', `/management/keys?keyId=${key.body.data.key.id}`, undefined, admin);
    await send('GET', '/management/tenant-overrides');
    await send('POST', '/management/tenant-overrides', { tenantId: 'acme', mode: 'provision' });
    await send('POST', '/memories/add', { content: 'Acme ships on Thursdays', scope: { tenantId: 'acme' } });
    await send('GET', '/management/tenant-overrides?tenantId=acme');
    await send('GET', '/management/embeddings/usage');
    await send('GET', '/management/embeddings/backfill');
    await send('POST', '/management/embeddings/backfill', { action: 'pause' });
    await send('POST', '/management/embeddings/backfill', { action: 'resume' });
    await send('POST', '/management/embeddings/backfill', { action: 'run' });
    await send('GET', '/management/embeddings/observability?windowHours=24');
    await send('GET', '/management/memory/observability?windowHours=24');
    await send('POST', '/management/memory/eval/replay', {
      scenarios: [
        {
          id: 'one',
          extraction: { expected: ['a fact'], observed: ['a fact'] },
          trigger: { expected: 'x', observed: 'x' },
        },
      ],
    });
    const exported = await server.app.request(`${API_PREFIX}/management/export?tenantId=acme`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const lines = await exported.text();
    await send('GET', '/management/export?tenantId=acme', undefined, admin);
    await send('POST', '/management/import?tenantId=acme-copy', undefined, {
      ...admin,
      raw: lines,
      contentType: 'application/x-ndjson',
    });
    await send('POST', '/management/users/erase', { userId: 'ada' }, admin);
    await send('DELETE', '/management/tenant-overrides?tenantId=acme');
    await send('POST', '/memories/add', { content: 'after disable', scope: { tenantId: 'acme' } });
    await send('DELETE', '/management/keys', undefined, admin);
    // Errors of every kind the pipeline gives.
    await send('POST', '/memories/add', { content: 'x' }, { key: null });
    await send('POST', '/memories/add', { content: 'x' }, { key: 'not-a-key' });
    await send('POST', '/memories/add', { content: 'x' }, { key: `mem_${'b2'.repeat(32)}` });
    await send('POST', '/memories/add', { content: '' }, admin);

    expect(violations).toEqual([]);
    // The run covers every operation of the document.
    expect(operationList.map((operation) => operation.id).filter((id) => !covered.has(id))).toEqual([]);
  });
});

/** The document's verdict on a request: its body against the request body schema, its query against the parameters. */
function documentAccepts(method: string, route: string, body: unknown): { valid: boolean; why: string } {
  const { path, operation } = operationOf(method, route);
  const problems: string[] = [];
  if (operation.requestBody !== undefined) {
    if (body === undefined) {
      if (operation.requestBody.required) problems.push('body required');
    } else {
      const validate = validatorAt(
        'paths',
        path,
        method.toLowerCase(),
        'requestBody',
        'content',
        'application/json',
        'schema',
      );
      if (!validate(body))
        problems.push(...(validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`));
    }
  }
  const query = new URLSearchParams(route.split('?')[1] ?? '');
  for (const [index, parameter] of operation.parameters.entries()) {
    if (parameter.in !== 'query') continue;
    const value = query.get(parameter.name);
    if (value === null) {
      if (parameter.required) problems.push(`${parameter.name} required`);
      continue;
    }
    const validate = validatorAt('paths', path, method.toLowerCase(), 'parameters', String(index), 'schema');
    // A query value is a string; a number or boolean parameter is read from its text, as the server reads it.
    const typed = /^-?\d+(\.\d+)?$/.test(value)
      ? [value, Number(value)]
      : value === 'true' || value === 'false'
        ? [value, value === 'true']
        : [value];
    if (!typed.some((candidate) => validate(candidate)))
      problems.push(`${parameter.name}: ${JSON.stringify(validate.errors)}`);
  }
  for (const name of query.keys()) {
    if (!operation.parameters.some((parameter) => parameter.in === 'query' && parameter.name === name)) {
      problems.push(`${name} is not a parameter`);
    }
  }
  return { valid: problems.length === 0, why: problems.join('; ') };
}

const long = (length: number) => 'x'.repeat(length);

/** Requests at the edges of the rules: the document must call each one invalid exactly when the server answers 400. */
const edgeRequests: Array<[method: string, route: string, body?: unknown]> = [
  ['POST', '/memories/search', { query: '' }],
  ['POST', '/memories/search', { query: '   ' }],
  ['POST', '/memories/search', { query: 'deploys' }],
  ['POST', '/memories/search', { query: long(501) }],
  ['POST', '/memories/search', { query: 'x', strategy: 'semantic' }],
  ['POST', '/memories/search', { query: 'x', strategy: 'vector' }],
  ['POST', '/context/get', { query: '' }],
  ['POST', '/context/get', { query: long(500), limit: 50, graphDepth: 2, graphLimit: 50 }],
  ['POST', '/context/get', { limit: 51 }],
  ['POST', '/context/get', { graphDepth: 3 }],
  ['POST', '/context/get', { session_id: 'hint' }],
  ['POST', '/memories/add', { content: '' }],
  ['POST', '/memories/add', { content: '   ' }],
  ['POST', '/memories/add', { content: long(8001) }],
  ['POST', '/memories/add', { content: 'ok', tags: [''] }],
  ['POST', '/memories/add', { content: 'ok', tags: ['  '] }],
  ['POST', '/memories/add', { content: 'ok', category: '' }],
  ['POST', '/memories/add', { content: 'ok', paths: [long(301)] }],
  ['POST', '/memories/add', { content: 'ok', scope: { tenantId: 'bad id!' } }],
  ['POST', '/memories/add', { content: 'ok', scope: { userId: '' } }],
  ['POST', '/memories/add', { content: 'ok', scope: { projectId: '' } }],
  ['POST', '/memories/add', { content: 'ok', embeddingModel: '' }],
  ['POST', '/memories/add', { content: 'ok', occurredAt: 'yesterday' }],
  ['POST', '/memories/add', { content: 'ok', userId: 'ada' }],
  ['POST', '/memories/edit', { id: 'abc' }],
  ['POST', '/memories/edit', { id: '', content: 'x' }],
  ['POST', '/memories/edit', { id: 'missing-id', content: 'x' }],
  ['POST', '/memories/forget', { id: '' }],
  ['POST', '/memories/forget', { id: '  ' }],
  ['POST', '/memories/list', { limit: 0 }],
  ['POST', '/memories/list', { cursor: '' }],
  ['POST', '/memories/bulk-forget', {}],
  ['POST', '/memories/bulk-forget', { filters: {} }],
  ['POST', '/memories/bulk-forget', { filters: { projectId: 'p' } }],
  ['POST', '/memories/bulk-forget', { all: true, filters: { types: ['note'] } }],
  ['POST', '/memories/bulk-forget', { all: true, filters: { projectId: 'p' } }],
  ['POST', '/memories/bulk-forget', { filters: { all: true, tags: ['a'] } }],
  ['POST', '/memories/bulk-forget', { all: true, dryRun: true }],
  ['POST', '/memories/bulk-forget', { filters: { all: true }, dryRun: true }],
  ['POST', '/memories/bulk-forget', { filters: { types: [] } }],
  ['POST', '/memories/bulk-forget', { filters: { olderThanDays: 0 } }],
  ['POST', '/memories/bulk-forget', { filters: { pattern: '' } }],
  ['POST', '/memories/consolidate', { model: '' }],
  ['POST', '/skills/files/upsert', { path: '', content: 'x' }],
  ['POST', '/skills/files/upsert', { path: '   ', content: 'x' }],
  ['POST', '/skills/files/upsert', { path: 'a.md', content: '' }],
  ['POST', '/skills/files/upsert', { path: 'a.md', content: 'x', procedureKey: '' }],
  ['POST', '/skills/files/upsert', { path: 'a.md', content: 'x', procedureKey: 'deploy' }],
  ['POST', '/skills/files/delete', { path: ' ' }],
  ['POST', '/skills/files/list', { cursor: '' }],
  ['POST', '/skills/files/promote', { sessionId: ' ', path: 'a.md' }],
  ['POST', '/skills/files/promote', { sessionId: 's', path: ' ' }],
  ['POST', '/skills/files/promote', { sessionId: 's', path: 'a.md', maxSteps: 2 }],
  ['POST', '/sessions/start', { title: '' }],
  ['POST', '/sessions/start', { client: '   ' }],
  ['POST', '/sessions/checkpoint', { sessionId: '', content: 'x' }],
  ['POST', '/sessions/checkpoint', { sessionId: '  ', content: 'x' }],
  ['POST', '/sessions/checkpoint', { sessionId: 's', content: '' }],
  ['POST', '/sessions/checkpoint', { sessionId: 's', content: '  ' }],
  ['POST', '/sessions/end', { sessionId: 's', status: 'open' }],
  ['POST', '/sessions/end', { sessionId: ' ', status: 'closed' }],
  ['POST', '/graph/rollout', { mode: 'on' }],
  ['PATCH', '/graph/rollout', {}],
  ['POST', '/graph/trace', { strategy: 'semantic' }],
  ['POST', '/management/tenant-overrides', { tenantId: 'x', mode: 'attach' }],
  [
    'POST',
    '/management/tenant-overrides',
    { tenantId: 'x', mode: 'attach', attachDbUrl: 'libsql://a', tursoDbUrl: 'libsql://b' },
  ],
  ['POST', '/management/tenant-overrides', { tenantId: '', mode: 'provision' }],
  ['POST', '/management/tenant-overrides', { tenantId: 'edge-provisioned', mode: 'provision' }],
  ['POST', '/management/embeddings/backfill', { action: 'stop' }],
  ['POST', '/management/memory/eval/replay', { scenarios: [] }],
  ['POST', '/management/memory/eval/replay', { scenarios: [{ id: '' }] }],
  ['GET', '/management/embeddings/observability?windowHours=0'],
  ['GET', '/management/embeddings/observability?windowHours=169'],
  ['GET', '/management/memory/observability?windowHours=336'],
  ['GET', '/management/embeddings/usage?usageMonth=2026-13-01'],
  ['GET', '/management/embeddings/usage?limit=0'],
  ['GET', '/graph/status?topNodesLimit=0'],
  ['GET', '/sessions?limit=0'],
  ['GET', '/sessions?status=open'],
  ['GET', '/embeddings/models?tenantId=bad%20id'],
  ['GET', '/embeddings/models?unknown=1'],
  ['GET', '/memories/abc?projectId='],
];

describe('the document calls a request invalid exactly when the server answers 400', () => {
  beforeAll(async () => {
    // A fresh server: the run above revoked every key.
    await server.close();
    server = await createTestServer();
  });

  const cases = edgeRequests.map(([method, route, body]) => {
    const json = JSON.stringify(body) ?? '';
    return [`${method} ${route} ${json.length > 60 ? `${json.slice(0, 60)}...` : json}`, method, route, body] as const;
  });
  it.each(cases)('%s', async (_, method, route, body) => {
    const verdict = documentAccepts(method, route, body);
    const response = await send(method, route, body, route.startsWith('/management') ? admin : {});
    expect({ documentValid: verdict.valid, status: response.status, why: verdict.why }).toMatchObject(
      verdict.valid ? { documentValid: true } : { documentValid: false, status: 400 },
    );
    if (verdict.valid)
      expect({ status: response.status, error: response.body.error }).not.toMatchObject({ status: 400 });
  });

  it('every response of these requests matches the document too', () => {
    expect(violations).toEqual([]);
  });
});
