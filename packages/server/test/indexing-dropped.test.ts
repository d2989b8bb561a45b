import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/store/database.js';
import { workspaceDatabase } from './graph-test-helpers.js';
import { createTestServer, type TestServer } from './harness.js';

let server: TestServer;
let database: Database;
const warnings: string[] = [];

beforeAll(async () => {
  server = await createTestServer();
  database = await workspaceDatabase(server);
  const { logger } = server.services;
  const warn = logger.warn.bind(logger);
  logger.warn = (message, fields) => {
    warnings.push(message);
    warn(message, fields);
  };
});
afterAll(async () => {
  await server.close();
});

const indexedState = async (id: string) => ({
  vector: await database.get(
    'SELECT 1 FROM memory_vectors_local_hash_384_384 v JOIN memories m ON m.seq = v.memory_seq WHERE m.id = ?',
    [id],
  ),
  node: await database.get('SELECT 1 FROM graph_nodes WHERE id = ?', [`memory:${id}`]),
});

describe('a memory gone before its index job runs', () => {
  it('drops the job of a forgotten, superseded or purged memory without an error, and indexes the rest', async () => {
    server.services.indexing.pause();
    const add = async (body: Record<string, unknown>) => (await server.post<{ id: string }>('/memories/add', body)).id;
    const forgotten = await add({ content: 'A note written by mistake', tags: ['oops'] });
    const purged = await add({ content: 'Another note nobody needs' });
    const kept = await add({ content: 'Deploy target: staging', type: 'decision' });
    const older = await add({ content: 'Release day: Tuesday', type: 'decision' });
    const newer = await add({ content: 'Release day: Thursday', type: 'decision' });
    await server.post('/memories/forget', { id: forgotten });
    await server.post('/memories/forget', { id: purged });
    await server.post('/memories/vacuum', {});
    const run = await server.post<{ supersededMemoryIds: string[] }>('/memories/consolidate', {});
    expect(run.supersededMemoryIds).toEqual([older]);

    await server.indexed();
    server.services.indexing.resume();
    expect(await database.all('SELECT memory_id FROM index_jobs')).toEqual([]);
    for (const id of [forgotten, older]) expect(await indexedState(id)).toEqual({ vector: undefined, node: undefined });
    for (const id of [kept, newer]) expect(await indexedState(id)).toEqual({ vector: { 1: 1 }, node: { 1: 1 } });
    expect(await database.all('SELECT code FROM graph_errors')).toEqual([]);
    expect(warnings).toEqual([]);
  });
});
