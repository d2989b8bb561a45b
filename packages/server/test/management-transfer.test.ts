import { openApiDocument } from '@memory-service/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestServer, TEST_KEY, type TestServer } from './harness.js';

const EXPORT = '/api/sdk/v1/management/export';
const IMPORT = '/api/sdk/v1/management/import';

let source: TestServer;
let target: TestServer;

beforeAll(async () => {
  source = await createTestServer();
  target = await createTestServer();
  await source.post('/memories/add', { content: 'The workspace memory about otters' });
  await source.post('/memories/add', {
    content: 'The tenant memory about beavers',
    scope: { tenantId: 'acme', userId: 'ada' },
  });
  await source.post('/sessions/start', { title: 'kept', scope: { tenantId: 'acme' } });
  // The graph rows the indexer derives are exported too: let it finish, so every export holds the same records.
  await source.indexed();
});

afterAll(async () => {
  await source.close();
  await target.close();
});

async function exportText(query = '', token = ADMIN_TOKEN): Promise<{ status: number; type: string; text: string }> {
  const response = await source.app.request(`${EXPORT}${query}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
}

function importBody(body: string, query = '', token = ADMIN_TOKEN) {
  return target.call('POST', `${IMPORT}${query}`, body, {
    key: token,
    headers: { 'content-type': 'application/x-ndjson' },
  });
}

describe('GET /management/export', () => {
  it('streams the workspace as JSON lines with the admin token', async () => {
    const { status, type, text } = await exportText();
    expect(status).toBe(200);
    expect(type).toContain('application/x-ndjson');
    const lines = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ format: 'memory-service-export', version: 1 });
    expect(lines.at(-1)).toMatchObject({ record: 'end', counts: { tenant: 2, memory: 2, session: 1 } });
    expect(lines.filter((line) => line.record === 'memory').map((line) => line.content)).toEqual([
      'The workspace memory about otters',
      'The tenant memory about beavers',
    ]);
  });

  it('exports one tenant with tenantId, and 404 for a tenant the workspace does not have', async () => {
    const { text } = await exportText('?tenantId=acme');
    const lines = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.filter((line) => line.record === 'tenant').map((line) => line.tenantId)).toEqual(['acme']);
    const missing = await source.call('GET', `${EXPORT}?tenantId=nobody`, undefined, { key: ADMIN_TOKEN });
    expect(missing.status).toBe(404);
    expect(missing.body.error?.code).toBe('TENANT_NOT_FOUND');
  });

  it('refuses an API key with 403 in the envelope', async () => {
    const response = await source.call('GET', EXPORT, undefined, { key: TEST_KEY });
    expect(response.status).toBe(403);
    expect(response.body.error?.code).toBe('OPERATOR_CREDENTIAL_REQUIRED');
    const anonymous = await source.call('GET', EXPORT, undefined, { key: null });
    expect(anonymous.status).toBe(401);
  });

  it('is in the OpenAPI document as JSON lines', () => {
    const document = openApiDocument() as { paths: Record<string, Record<string, any>> };
    const get = document.paths[EXPORT]?.get;
    expect(Object.keys(get.responses['200'].content)).toEqual(['application/x-ndjson']);
    expect(Object.keys(document.paths[IMPORT]?.post.requestBody.content)).toEqual(['application/x-ndjson']);
  });
});

describe('POST /management/import', () => {
  it('imports an export into the caller workspace, the same body twice leaving one copy', async () => {
    const { text } = await exportText();
    const first = await importBody(text);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ format: 'memory-service', counts: { memory: 2, session: 1 } });
    expect(first.body.data?.databases).toEqual([
      { workspace: 'default', tenantId: null, records: expect.any(Number) },
      { workspace: 'default', tenantId: 'acme', records: expect.any(Number) },
    ]);
    expect((await importBody(text)).status).toBe(200);
    const listed = await target.post<{ memories: Array<{ content: string }> }>('/memories/list', {
      scope: { tenantId: 'acme', userId: 'ada' },
    });
    expect(listed.memories.map((memory) => memory.content)).toEqual(['The tenant memory about beavers']);
    const own = await target.post<{ memories: Array<{ content: string }> }>('/memories/list', {});
    expect(own.memories.map((memory) => memory.content)).toEqual(['The workspace memory about otters']);
  });

  it('refuses a damaged body with 400 naming the line, and an API key with 403', async () => {
    const { text } = await exportText('?tenantId=acme');
    const lines = text.trimEnd().split('\n');
    const damaged = `${lines.slice(0, 2).join('\n')}\n{"record":"memory"\n${lines.slice(2).join('\n')}\n`;
    const response = await importBody(damaged, '?tenantId=acme');
    expect(response.status).toBe(400);
    expect(response.body.error?.code).toBe('INVALID_REQUEST');
    expect(response.body.error?.details).toMatchObject({ field: 'body', line: 3 });
    const forbidden = await importBody(text, '', TEST_KEY);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error?.code).toBe('OPERATOR_CREDENTIAL_REQUIRED');
  });

  it('takes mem0 memories into a tenant named in the query', async () => {
    const body = `${JSON.stringify({ id: 'm-1', memory: 'Likes green tea', user_id: 'kim', created_at: '2024-01-02T03:04:05Z' })}\n`;
    const response = await importBody(body, '?tenantId=mem0-import');
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ format: 'mem0-jsonl', counts: { memory: 1 } });
    const listed = await target.post<{ memories: Array<{ content: string }> }>('/memories/list', {
      scope: { tenantId: 'mem0-import', userId: 'kim' },
    });
    expect(listed.memories.map((memory) => memory.content)).toEqual(['Likes green tea']);
  });
});
