import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SessionEvent } from '@memory-service/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../src/config.js';
import { procedureKeyFromPath, selectSteps, stepLine } from '../src/sessions/procedure.js';
import { Database } from '../src/store/database.js';
import { migrate } from '../src/store/migrate.js';
import { tenantMigrations } from '../src/store/migrations/tenant.js';
import { markdownTitle, SkillStore } from '../src/store/skills.js';
import { createTestServer, type TestResponse, type TestServer } from './harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});

function expectError(response: TestResponse, status: number, code: string, field?: string): void {
  expect(response.status).toBe(status);
  expect(response.body.ok).toBe(false);
  expect(response.body.error?.code).toBe(code);
  if (field !== undefined) expect(response.body.error?.details?.field).toBe(field);
}

async function listPaths(scope?: Record<string, string>, limit?: number): Promise<string[]> {
  const data = await server.post<{ skillFiles: { path: string }[]; count: number }>('/skills/files/list', {
    scope,
    limit,
  });
  expect(data.count).toBe(data.skillFiles.length);
  return data.skillFiles.map((file) => file.path);
}

/** A closed session with the given checkpoints; returns its id and snapshot id. */
async function endedSession(
  events: Record<string, unknown>[],
  options: { title?: string; scope?: Record<string, string> } = {},
): Promise<{ sessionId: string; snapshotId: string }> {
  const { sessionId } = await server.post<{ sessionId: string }>('/sessions/start', {
    title: options.title,
    scope: options.scope,
  });
  for (const event of events) await server.post('/sessions/checkpoint', { sessionId, scope: options.scope, ...event });
  const ended = await server.post<{ snapshot: { id: string } }>('/sessions/end', { sessionId, scope: options.scope });
  return { sessionId, snapshotId: ended.snapshot.id };
}

describe('skills/files/upsert', () => {
  it('creates (created true) then updates (created false), 200 both times', async () => {
    const scope = { userId: 'upserter' };
    const first = await server.call('POST', '/skills/files/upsert', {
      path: 'guides/deploy.md',
      content: '# Deploy\n\nStep one',
      scope,
    });
    expect(first.status).toBe(200);
    expect(first.body.data?.created).toBe(true);
    const file = first.body.data?.skillFile;
    expect(file).toMatchObject({
      path: 'guides/deploy.md',
      title: 'Deploy',
      content: '# Deploy\n\nStep one',
      userId: 'upserter',
    });
    expect(file).toMatchObject({ projectId: null, useCount: 0, lastUsedAt: null, metadata: {} });
    const second = await server.call('POST', '/skills/files/upsert', {
      path: 'guides/deploy.md',
      content: 'no heading',
      scope,
    });
    expect(second.status).toBe(200);
    expect(second.body.data?.created).toBe(false);
    expect(second.body.data?.skillFile).toMatchObject({
      id: file.id,
      title: null,
      content: 'no heading',
      createdAt: file.createdAt,
    });
  });

  it('keeps one live file per exact (user, project, path): other scopes get their own file', async () => {
    const shared = await server.post<{ skillFile: { id: string }; created: boolean }>('/skills/files/upsert', {
      path: 'scoped.md',
      content: 'shared',
    });
    const own = await server.post<{ skillFile: { id: string }; created: boolean }>('/skills/files/upsert', {
      path: 'scoped.md',
      content: 'own',
      scope: { userId: 'dora' },
    });
    expect(shared.created && own.created).toBe(true);
    expect(own.skillFile.id).not.toBe(shared.skillFile.id);
  });

  it('path 400 / content 120000 are accepted; 401 / 120001 are INVALID_REQUEST; missing path too', async () => {
    const scope = { userId: 'limits' };
    expect(
      (await server.call('POST', '/skills/files/upsert', { path: 'p'.repeat(400), content: 'x', scope })).status,
    ).toBe(200);
    expect(
      (await server.call('POST', '/skills/files/upsert', { path: 'big.md', content: 'c'.repeat(120000), scope }))
        .status,
    ).toBe(200);
    expectError(
      await server.call('POST', '/skills/files/upsert', { path: 'p'.repeat(401), content: 'x' }),
      400,
      'INVALID_REQUEST',
      'path',
    );
    expectError(
      await server.call('POST', '/skills/files/upsert', { path: 'big.md', content: 'c'.repeat(120001) }),
      400,
      'INVALID_REQUEST',
      'content',
    );
    expectError(await server.call('POST', '/skills/files/upsert', { content: 'x' }), 400, 'INVALID_REQUEST', 'path');
    expectError(
      await server.call('POST', '/skills/files/upsert', { path: 'a.md', content: '' }),
      400,
      'INVALID_REQUEST',
      'content',
    );
  });
});

describe('skills/files/list and delete', () => {
  const scope = { userId: 'lister', projectId: 'repo-list' };

  it('lists visible files ordered by path and honours limit', async () => {
    for (const name of ['c.md', 'a.md', 'b/z.md', 'b/a.md']) {
      await server.post('/skills/files/upsert', { path: name, content: `# ${name}`, scope });
    }
    expect(await listPaths(scope)).toEqual(['a.md', 'b/a.md', 'b/z.md', 'c.md', 'scoped.md']);
    expect(await listPaths(scope, 2)).toEqual(['a.md', 'b/a.md']);
    expect((await server.call('POST', '/skills/files/list', { scope, limit: 500 })).status).toBe(200);
    expectError(await server.call('POST', '/skills/files/list', { limit: 0 }), 400, 'INVALID_REQUEST', 'limit');
    expectError(await server.call('POST', '/skills/files/list', { limit: 501 }), 400, 'INVALID_REQUEST', 'limit');
  });

  it('delete soft-deletes: the file leaves the list, a second delete is 404 SKILL_FILE_NOT_FOUND', async () => {
    const response = await server.call('POST', '/skills/files/delete', { path: 'b/z.md', scope });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ path: 'b/z.md', deleted: true, message: expect.any(String) });
    expect(await listPaths(scope)).toEqual(['a.md', 'b/a.md', 'c.md', 'scoped.md']);
    expectError(
      await server.call('POST', '/skills/files/delete', { path: 'b/z.md', scope }),
      404,
      'SKILL_FILE_NOT_FOUND',
    );
    const recreated = await server.post<{ created: boolean }>('/skills/files/upsert', {
      path: 'b/z.md',
      content: 'again',
      scope,
    });
    expect(recreated.created).toBe(true);
  });

  it('delete prefers the exact-scope file over a shared one at the same path', async () => {
    const user = { userId: 'dora' };
    await server.post('/skills/files/delete', { path: 'scoped.md', scope: user });
    const remaining = await server.post<{ skillFiles: { path: string; content: string }[] }>('/skills/files/list', {
      scope: user,
    });
    expect(remaining.skillFiles.find((file) => file.path === 'scoped.md')?.content).toBe('shared');
  });

  it('delete path limits: 401 is INVALID_REQUEST, missing is INVALID_REQUEST', async () => {
    expectError(
      await server.call('POST', '/skills/files/delete', { path: 'p'.repeat(401) }),
      400,
      'INVALID_REQUEST',
      'path',
    );
    expectError(await server.call('POST', '/skills/files/delete', {}), 400, 'INVALID_REQUEST', 'path');
    expectError(
      await server.call('POST', '/skills/files/delete', { path: 'p'.repeat(400) }),
      404,
      'SKILL_FILE_NOT_FOUND',
    );
  });
});

describe('skill file isolation', () => {
  it("a user's file is invisible to another user and to a request without userId", async () => {
    await server.post('/skills/files/upsert', {
      path: 'private/alice.md',
      content: 'alice only',
      scope: { userId: 'alice' },
    });
    expect(await listPaths({ userId: 'alice' })).toContain('private/alice.md');
    expect(await listPaths({ userId: 'bob' })).not.toContain('private/alice.md');
    expect(await listPaths()).not.toContain('private/alice.md');
    const response = await server.call('POST', '/skills/files/delete', {
      path: 'private/alice.md',
      scope: { userId: 'bob' },
    });
    expectError(response, 404, 'SKILL_FILE_NOT_FOUND');
    expectError(
      await server.call('POST', '/skills/files/delete', { path: 'private/alice.md' }),
      404,
      'SKILL_FILE_NOT_FOUND',
    );
  });

  it('files of tenant-a are not listed in tenant-b', async () => {
    await server.post('/skills/files/upsert', { path: 'tenant.md', content: 'a', scope: { tenantId: 'tenant-a' } });
    expect(await listPaths({ tenantId: 'tenant-a' })).toEqual(['tenant.md']);
    expect(await listPaths({ tenantId: 'tenant-b' })).toEqual([]);
    expectError(
      await server.call('POST', '/skills/files/delete', { path: 'tenant.md', scope: { tenantId: 'tenant-b' } }),
      404,
      'SKILL_FILE_NOT_FOUND',
    );
  });
});

describe('skills/files/promote', () => {
  const conversation = [
    { role: 'system', content: 'You are a release assistant.' },
    { role: 'user', content: 'Release version 3 of the service. Make sure tests pass first.' },
    { role: 'assistant', kind: 'decision', content: 'Run the full test suite before tagging.\nDetails follow.' },
    { role: 'assistant', kind: 'tool_call', content: '  pnpm   test   --run ' },
    { role: 'tool', kind: 'tool_result', content: 'All 312 tests passed' },
    { role: 'assistant', kind: 'message', content: 'Tagging v3.0.0 and pushing the tag.' },
    { role: 'assistant', kind: 'message', content: 'Tagging v3.0.0 and pushing the tag.' },
    { role: 'assistant', kind: 'note', content: 'Chatter that is not meaningful', isMeaningful: false },
    { role: 'assistant', kind: 'summary', content: 'Released v3 after a green test run.' },
  ];

  it('creates the file (201), then updates it at the same path (200), with the procedure layout', async () => {
    const scope = { userId: 'promoter' };
    const { sessionId, snapshotId } = await endedSession(conversation, { title: 'Release v3', scope });
    const first = await server.call('POST', '/skills/files/promote', {
      sessionId,
      path: 'procedures/Release Service.md',
      scope,
    });
    expect(first.status).toBe(201);
    const data = first.body.data!;
    expect(data.created).toBe(true);
    expect(data.source).toEqual({
      sessionId,
      snapshotId,
      snapshotSlug: `release-v3-${sessionId.slice(0, 8)}`,
      snapshotCreatedAt: expect.any(String),
    });
    expect(data.skillFile).toMatchObject({
      path: 'procedures/Release Service.md',
      title: 'Release v3',
      userId: 'promoter',
    });
    expect(data.skillFile.content).toBe(
      [
        '# Release v3',
        'procedureKey: release-service',
        '## Steps',
        [
          '1. Release version 3 of the service.',
          '2. Run the full test suite before tagging.',
          '3. pnpm test --run',
          '4. Tagging v3.0.0 and pushing the tag.',
        ].join('\n'),
        '## Source',
        [
          `- Session: ${sessionId}`,
          `- Snapshot: ${snapshotId}`,
          `- Slug: ${data.source.snapshotSlug}`,
          `- Created: ${data.source.snapshotCreatedAt}`,
        ].join('\n'),
      ].join('\n\n') + '\n',
    );
    const second = await server.call('POST', '/skills/files/promote', {
      sessionId,
      snapshotId,
      path: 'procedures/Release Service.md',
      title: 'Releasing',
      procedureKey: 'release',
      maxSteps: 3,
      scope,
    });
    expect(second.status).toBe(200);
    expect(second.body.data?.created).toBe(false);
    expect(second.body.data?.skillFile.id).toBe(data.skillFile.id);
    const content: string = second.body.data?.skillFile.content;
    expect(content.startsWith('# Releasing\n\nprocedureKey: release\n\n## Steps\n\n')).toBe(true);
    const steps = content.match(/^\d+\. .+$/gm) ?? [];
    expect(steps).toEqual([
      '1. Release version 3 of the service.',
      '2. Run the full test suite before tagging.',
      '3. pnpm test --run',
    ]);
    expect(await listPaths(scope)).toContain('procedures/Release Service.md');
  });

  it('never writes more than maxSteps steps, for every maxSteps from 3 to 20', async () => {
    const many = Array.from({ length: 25 }, (_, index) => ({
      role: 'assistant',
      kind: 'decision',
      content: `Decision number ${index}.`,
    }));
    const { sessionId } = await endedSession(many);
    for (const maxSteps of [3, 7, 20]) {
      const data = await server.post<{ skillFile: { content: string } }>('/skills/files/promote', {
        sessionId,
        path: `many-${maxSteps}.md`,
        maxSteps,
      });
      expect(data.skillFile.content.match(/^\d+\. /gm)).toHaveLength(maxSteps);
    }
  });

  it('falls back to the summary when nothing else is meaningful, and to "Procedure" without titles', async () => {
    const { sessionId } = await endedSession([
      { role: 'assistant', kind: 'summary', content: 'Install deps. Build the app.\nDeploy it!' },
      { role: 'user', content: 'noise', isMeaningful: false },
    ]);
    const data = await server.post<{ skillFile: { content: string; title: string } }>('/skills/files/promote', {
      sessionId,
      path: 'summary-only.md',
    });
    expect(data.skillFile.title).toBe('Procedure');
    expect(data.skillFile.content).toContain('1. Install deps.\n2. Build the app.\n3. Deploy it!');
  });

  it('errors: SESSION_ID_REQUIRED, SKILL_FILE_PATH_REQUIRED, SESSION_NOT_FOUND, SESSION_SNAPSHOT_NOT_FOUND', async () => {
    expectError(
      await server.call('POST', '/skills/files/promote', { path: 'x.md' }),
      400,
      'SESSION_ID_REQUIRED',
      'sessionId',
    );
    expectError(
      await server.call('POST', '/skills/files/promote', { sessionId: '', path: 'x.md' }),
      400,
      'SESSION_ID_REQUIRED',
    );
    expectError(
      await server.call('POST', '/skills/files/promote', { sessionId: 'abc' }),
      400,
      'SKILL_FILE_PATH_REQUIRED',
      'path',
    );
    expectError(
      await server.call('POST', '/skills/files/promote', { sessionId: 'abc', path: '' }),
      400,
      'SKILL_FILE_PATH_REQUIRED',
    );
    expectError(
      await server.call('POST', '/skills/files/promote', { sessionId: 'unknown', path: 'x.md' }),
      404,
      'SESSION_NOT_FOUND',
    );
    const { sessionId } = await server.post<{ sessionId: string }>('/sessions/start', {});
    const active = await server.call('POST', '/skills/files/promote', { sessionId, path: 'x.md' });
    expectError(active, 404, 'SESSION_SNAPSHOT_NOT_FOUND');
    const ended = await endedSession([{ content: 'x' }]);
    const wrongSnapshot = await server.call('POST', '/skills/files/promote', {
      sessionId: ended.sessionId,
      snapshotId: '00000000-0000-4000-8000-000000000000',
      path: 'x.md',
    });
    expectError(wrongSnapshot, 404, 'SESSION_SNAPSHOT_NOT_FOUND');
    const otherSessionsSnapshot = await endedSession([{ content: 'y' }]);
    const mismatched = await server.call('POST', '/skills/files/promote', {
      sessionId: ended.sessionId,
      snapshotId: otherSessionsSnapshot.snapshotId,
      path: 'x.md',
    });
    expectError(mismatched, 404, 'SESSION_SNAPSHOT_NOT_FOUND');
  });

  it('MEMORY_PROCEDURAL_DISABLED (403) when the procedural flag is off', async () => {
    const disabled = await createTestServer({ flags: { MEMORY_PROCEDURAL_ENABLED: false } as ServerConfig['flags'] });
    try {
      const response = await disabled.call('POST', '/skills/files/promote', { sessionId: 'abc', path: 'x.md' });
      expectError(response, 403, 'MEMORY_PROCEDURAL_DISABLED');
      expect(response.body.error?.type).toBe('auth_error');
    } finally {
      await disabled.close();
    }
  });

  it('limits: sessionId 120/121, path 400/401, title 200/201, procedureKey 120/121, maxSteps 3..20', async () => {
    const { sessionId } = await endedSession([{ content: 'Do the thing.' }]);
    const promote = (body: Record<string, unknown>) =>
      server.call('POST', '/skills/files/promote', { sessionId, path: 'l.md', ...body });
    expectError(await promote({ sessionId: 's'.repeat(120) }), 404, 'SESSION_NOT_FOUND');
    expectError(await promote({ sessionId: 's'.repeat(121) }), 400, 'INVALID_REQUEST', 'sessionId');
    expect((await promote({ path: 'p'.repeat(400) })).status).toBe(201);
    expectError(await promote({ path: 'p'.repeat(401) }), 400, 'INVALID_REQUEST', 'path');
    const titled = await promote({ title: 't'.repeat(200) });
    expect(titled.status).toBe(201);
    expect(titled.body.data?.skillFile.title).toBe('t'.repeat(200));
    expectError(await promote({ title: 't'.repeat(201) }), 400, 'INVALID_REQUEST', 'title');
    const keyed = await promote({ procedureKey: 'k'.repeat(120) });
    expect(keyed.status).toBe(200);
    expect(keyed.body.data?.skillFile.content).toContain(`procedureKey: ${'k'.repeat(120)}\n`);
    expectError(await promote({ procedureKey: 'k'.repeat(121) }), 400, 'INVALID_REQUEST', 'procedureKey');
    for (const maxSteps of [3, 20]) expect((await promote({ maxSteps })).status).toBe(200);
    for (const maxSteps of [2, 21, 3.5]) expectError(await promote({ maxSteps }), 400, 'INVALID_REQUEST', 'maxSteps');
  });

  it("a user's session cannot be promoted by another user or without userId", async () => {
    const scope = { userId: 'alice' };
    const { sessionId } = await endedSession([{ content: 'secret plan' }], { scope });
    for (const other of [{ userId: 'bob' }, undefined]) {
      const response = await server.call('POST', '/skills/files/promote', {
        sessionId,
        path: 'stolen.md',
        scope: other,
      });
      expectError(response, 404, 'SESSION_NOT_FOUND');
    }
    expect((await server.call('POST', '/skills/files/promote', { sessionId, path: 'mine.md', scope })).status).toBe(
      201,
    );
    expect(await listPaths({ userId: 'bob' })).not.toContain('mine.md');
  });
});

describe('SkillStore.listForContext (used by context/get)', () => {
  let directory: string;
  let database: Database;
  let store: SkillStore;
  const alice = { tenantId: null, userId: 'alice', projectId: null };
  const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 0, minute));

  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'skill-store-test-'));
    database = await Database.open({ url: `file:${path.join(directory, 'tenant.db')}` });
    await migrate(database, tenantMigrations);
    store = new SkillStore(database);
    const shared = { tenantId: null, userId: null, projectId: null };
    await store.upsert({ path: 'deploy/release.md', content: '# Release\nTag and PUSH the release.' }, shared, at(1));
    await store.upsert({ path: 'deploy/rollback.md', content: '# Rollback\nRevert the release.' }, alice, at(2));
    await store.upsert({ path: 'style/naming.md', content: '# Naming\nSpell names out.' }, shared, at(3));
    await store.upsert({ path: 'private/bob.md', content: 'release push tag' }, { ...shared, userId: 'bob' }, at(4));
  });
  afterAll(() => {
    database.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('ranks by matched query words, then use and recency; counts the use of returned files', async () => {
    const first = await store.listForContext(alice, 'push the RELEASE tag', 100, at(10));
    expect(first.map((file) => file.path)).toEqual(['deploy/release.md', 'deploy/rollback.md', 'style/naming.md']);
    expect(first.every((file) => file.useCount === 1 && file.lastUsedAt === at(10).toISOString())).toBe(true);
    const limited = await store.listForContext(alice, 'naming', 1, at(11));
    expect(limited.map((file) => [file.path, file.useCount])).toEqual([['style/naming.md', 2]]);
    // No query words: most used first (naming has 2 uses), then most recently used.
    const unranked = await store.listForContext(alice, '', 100, at(12));
    expect(unranked.map((file) => file.path)).toEqual(['style/naming.md', 'deploy/release.md', 'deploy/rollback.md']);
    const stored = await database.all<{ path: string; use_count: number }>(
      'SELECT path, use_count FROM skill_files ORDER BY path',
    );
    expect(stored.map((row) => [row.path, Number(row.use_count)])).toEqual([
      ['deploy/release.md', 2],
      ['deploy/rollback.md', 2],
      ['private/bob.md', 0],
      ['style/naming.md', 3],
    ]);
  });

  it('records skill.upserted (created true, then false) and skill.deleted lifecycle events', async () => {
    const scope = { tenantId: null, userId: 'eve', projectId: 'repo-e' };
    await store.upsert({ path: 'life.md', content: 'one' }, scope, at(30));
    await store.upsert({ path: 'life.md', content: 'two' }, scope, at(31));
    expect(await store.softDelete('life.md', scope, at(32))).toEqual({
      outcome: 'deleted',
      row: { user_id: 'eve', project_id: 'repo-e' },
    });
    expect(await store.softDelete('life.md', scope, at(33))).toEqual({ outcome: 'not-found' });
    const rows = await database.all<{ kind: string; user_id: string; project_id: string; detail: string }>(
      "SELECT kind, user_id, project_id, detail FROM lifecycle_events WHERE user_id = 'eve' ORDER BY id",
    );
    expect(rows.map((row) => [row.kind, row.user_id, row.project_id, JSON.parse(row.detail)])).toEqual([
      ['skill.upserted', 'eve', 'repo-e', { path: 'life.md', created: true, source: 'upsert' }],
      ['skill.upserted', 'eve', 'repo-e', { path: 'life.md', created: false, source: 'upsert' }],
      ['skill.deleted', 'eve', 'repo-e', { path: 'life.md' }],
    ]);
  });

  it('returns nothing for a limit of 0 and only shared files to a request without userId', async () => {
    expect(await store.listForContext(alice, 'release', 0, at(20))).toEqual([]);
    const anonymous = await store.listForContext(
      { tenantId: null, userId: null, projectId: null },
      'release',
      100,
      at(21),
    );
    expect(anonymous.map((file) => file.path).sort()).toEqual(['deploy/release.md', 'style/naming.md']);
  });
});

describe('procedure and title helpers', () => {
  const event = (fields: Partial<SessionEvent>): SessionEvent => ({
    id: 'e',
    sessionId: 's',
    role: 'assistant',
    kind: 'message',
    content: '',
    tokenCount: 0,
    turnIndex: 0,
    isMeaningful: true,
    createdAt: '2030-01-01T00:00:00.000Z',
    ...fields,
  });

  it('stepLine keeps the first sentence of the first line, drops list markers, collapses whitespace, caps at 200', () => {
    expect(stepLine('\n\n- Run   the\ttests. Then deploy.')).toBe('Run the tests.');
    expect(stepLine('## Use v1.2 of the API\nmore')).toBe('Use v1.2 of the API');
    const long = stepLine('word '.repeat(100));
    expect(long.length).toBe(200);
    expect(long.endsWith('…')).toBe(true);
  });

  it('selectSteps skips summaries and unmeaningful events, dedupes case-insensitively', () => {
    const steps = selectSteps(
      [
        event({ kind: 'summary', content: 'Summary.' }),
        event({ content: 'Do A.' }),
        event({ content: 'do a.' }),
        event({ content: 'Skip me.', isMeaningful: false }),
        event({ kind: 'tool_result', content: 'Result.' }),
      ],
      10,
    );
    expect(steps).toEqual(['Do A.']);
    expect(selectSteps([event({ role: 'tool', kind: 'tool_result', content: 'Only a result.' })], 10)).toEqual([
      'Only a result.',
    ]);
    expect(selectSteps([], 10)).toEqual([]);
  });

  it('procedureKeyFromPath kebab-cases the file name without extension', () => {
    expect(procedureKeyFromPath('procedures/Deploy Service.md')).toBe('deploy-service');
    expect(procedureKeyFromPath('a/b/c')).toBe('c');
    expect(procedureKeyFromPath('???.md')).toBe('procedure');
  });

  it('markdownTitle takes the first level-1 heading outside code fences', () => {
    expect(markdownTitle('intro\n## Sub\n# Main Title ##\n# Second')).toBe('Main Title');
    expect(markdownTitle('```\n# not a title\n```\n# Real')).toBe('Real');
    expect(markdownTitle('#hashtag only')).toBeNull();
  });
});
