import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestResponse, type TestServer } from './harness.js';

/*
 * An upsert racing a delete of the same path answers with the file it wrote: reading the file back after its
 * transaction answered 500 (68 of 160), since the delete could soft-delete it in between.
 */

let server: TestServer;
const ROUNDS = 160;

beforeAll(async () => {
  // Room in the tenant's queue for every racing request: the race, not the queue limit, is under test.
  server = await createTestServer({ tenantQueueLimit: 4 * ROUNDS });
});
afterAll(async () => {
  await server.close();
});

describe('skills/files/upsert racing skills/files/delete of the same path', () => {
  it('answers every upsert 200 with the file it wrote, every delete 200 or 404 SKILL_FILE_NOT_FOUND', async () => {
    const scope = { tenantId: 'upsert-race', userId: 'racer' };
    const path = 'race/deploy.md';
    await server.post('/skills/files/upsert', { path, content: '# Deploy\nfirst', scope });
    const upserts: Array<Promise<TestResponse>> = [];
    const deletes: Array<Promise<TestResponse>> = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      upserts.push(server.call('POST', '/skills/files/upsert', { path, content: `# Deploy\nversion ${round}`, scope }));
      deletes.push(server.call('POST', '/skills/files/delete', { path, scope }));
    }
    const upserted = await Promise.all(upserts);
    const deleted = await Promise.all(deletes);

    const statuses = upserted.map((response) => response.status);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    upserted.forEach((response, round) => {
      expect(response.body.data?.skillFile).toMatchObject({
        path,
        title: 'Deploy',
        content: `# Deploy\nversion ${round}`,
        userId: 'racer',
        projectId: null,
      });
      expect(typeof response.body.data?.created).toBe('boolean');
    });
    // A file created by one upsert keeps its id and creation time in the answers of the upserts that updated it.
    const createdAt = new Map<string, string>();
    for (const response of upserted) {
      const file = response.body.data?.skillFile as { id: string; createdAt: string };
      expect(createdAt.get(file.id) ?? file.createdAt).toBe(file.createdAt);
      createdAt.set(file.id, file.createdAt);
    }
    for (const response of deleted) {
      if (response.status === 200) {
        expect(response.body.data).toEqual({ path, deleted: true, message: expect.any(String) });
      } else {
        expect(response.status).toBe(404);
        expect(response.body.error?.code).toBe('SKILL_FILE_NOT_FOUND');
      }
    }

    // Each upsert recorded one skill.upserted event, in its transaction, saying whether it created the file.
    const tenant = await server.services.resolver.resolve('default', 'upsert-race', new Date());
    const events = await tenant.database.all<{ created: number }>(
      `SELECT json_extract(detail, '$.created') AS created FROM lifecycle_events
       WHERE kind = 'skill.upserted' AND json_extract(detail, '$.path') = ?`,
      [path],
    );
    expect(events).toHaveLength(ROUNDS + 1);
    const createdAnswers = upserted.filter((response) => response.body.data?.created === true).length;
    expect(events.filter((event) => Number(event.created) === 1)).toHaveLength(createdAnswers + 1);

    // Still one live file at most at the path, and a later upsert and delete behave as usual.
    const listed = await server.post<{ skillFiles: Array<{ path: string }> }>('/skills/files/list', { scope });
    expect(listed.skillFiles.filter((file) => file.path === path).length).toBeLessThanOrEqual(1);
    const last = await server.post<{ skillFile: { content: string } }>('/skills/files/upsert', {
      path,
      content: 'last',
      scope,
    });
    expect(last.skillFile.content).toBe('last');
    expect((await server.call('POST', '/skills/files/delete', { path, scope })).status).toBe(200);
  });
});
