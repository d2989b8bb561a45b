import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AuthError,
  createMemoryClient,
  type MemoryClient,
  NotFoundError,
  UnsupportedOperationError,
} from '../src/index.js';

/** What this test needs from `@memory-service/server` (being written): `startServer(options)`. */
interface RunningServer {
  url: string;
  port: number;
  close: () => Promise<void> | void;
}
interface StartServerOptions {
  host: string;
  port: number;
  dataDir: string;
  bootstrapApiKey: string;
  adminToken?: string;
  logLevel?: string;
  mcpRuleWrites?: boolean;
}
type StartServer = (options: StartServerOptions) => Promise<RunningServer> | RunningServer;

// Loaded by a computed name so the client type-checks before the server package exists.
const serverPackage = '@memory-service/server';
const startServer: StartServer | undefined = await import(serverPackage).then(
  (module: { startServer?: unknown }) =>
    typeof module.startServer === 'function' ? (module.startServer as StartServer) : undefined,
  () => undefined,
);

const API_KEY = `mem_${'0123456789abcdef'.repeat(4)}`;
const ADMIN_TOKEN = 'integration-admin-token';

describe.skipIf(startServer === undefined)('against the real server', () => {
  let server: RunningServer;
  let dataDir: string;

  beforeAll(async () => {
    vi.stubEnv('MEMORY_SUPPRESS_DEPRECATION_WARNINGS', '1');
    dataDir = await mkdtemp(join(tmpdir(), 'memory-client-it-'));
    server = await startServer!({
      host: '127.0.0.1',
      port: 0,
      dataDir,
      bootstrapApiKey: API_KEY,
      adminToken: ADMIN_TOKEN,
      logLevel: 'silent',
      // The tests write rules over both transports: MCP refuses rule writes unless the operator allows them.
      mcpRuleWrites: true,
    });
  });

  afterAll(async () => {
    await server?.close();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
    vi.unstubAllEnvs();
  });

  it('answers health over HTTP', async () => {
    const client = createMemoryClient({ baseUrl: server.url, apiKey: API_KEY });
    await expect(client.health()).resolves.toMatchObject({ status: expect.any(String), schemaVersion: '2026-02-11' });
  });

  describe.each(['sdk_http', 'mcp'] as const)('over %s', (transport) => {
    let client: MemoryClient;
    const scope = { tenantId: `integration-${transport.replace('_', '-')}`, userId: 'ada' };

    beforeAll(() => {
      const baseUrl = transport === 'mcp' ? `${server.url}/api/mcp` : server.url;
      client = createMemoryClient({ baseUrl, apiKey: API_KEY, scope });
      expect(client.transport).toBe(transport);
    });
    afterAll(async () => {
      await client?.close();
    });

    it('adds, searches, lists, edits and forgets memories', async () => {
      const rule = await client.memories.add({ content: 'Deploys go out on Tuesdays', type: 'rule' });
      const fact = await client.memories.add({
        content: 'The staging database is Postgres 16',
        type: 'fact',
        tags: ['db'],
      });
      expect(rule.memory).toMatchObject({ content: 'Deploys go out on Tuesdays', type: 'rule', userId: 'ada' });

      const found = await client.memories.search({ query: 'staging database' });
      expect(found.memories.map((memory) => memory.id)).toContain(fact.id);

      const listed = await client.memories.list();
      expect(listed.memories.map((memory) => memory.id)).toEqual(expect.arrayContaining([rule.id, fact.id]));

      await expect(
        client.memories.edit({ id: fact.id, content: 'The staging database is Postgres 17' }),
      ).resolves.toMatchObject({
        id: fact.id,
        updated: true,
      });
      await expect(client.memories.forget({ id: fact.id })).resolves.toMatchObject({ id: fact.id, deleted: true });
      const afterForget = await client.memories.list();
      expect(afterForget.memories.map((memory) => memory.id)).not.toContain(fact.id);

      await expect(client.memories.forget({ id: 'does-not-exist' })).rejects.toBeInstanceOf(NotFoundError);
    });

    it('reads one memory and its history, and pages the list', async () => {
      const { id } = await client.memories.add({ content: 'The release train leaves at 16:00', type: 'fact' });
      await client.memories.edit({ id, content: 'The release train leaves at 17:00' });
      await expect(client.memories.get(id)).resolves.toMatchObject({
        id,
        memory: { id, content: 'The release train leaves at 17:00', userId: 'ada' },
      });
      const history = await client.memories.history(id);
      expect(history.versions).toEqual([
        expect.objectContaining({ memoryId: id, change: 'edited', content: 'The release train leaves at 16:00' }),
      ]);
      // Another user of the tenant does not see it: 404, as for an id that does not exist.
      await expect(client.memories.get(id, { scope: { ...scope, userId: 'bob' } })).rejects.toBeInstanceOf(
        NotFoundError,
      );
      await expect(client.memories.history('000000000000')).rejects.toBeInstanceOf(NotFoundError);

      const first = await client.memories.list({ limit: 1 });
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = await client.memories.list({ limit: 1, cursor: first.nextCursor ?? undefined });
      const both = await client.memories.list({ limit: 2 });
      expect([...first.memories, ...second.memories].map((memory) => memory.id)).toEqual(
        both.memories.map((memory) => memory.id),
      );
    });

    it('gets context with the session verdict and summary', async () => {
      await client.memories.add({ content: 'Always run the linter before a release', type: 'rule' });
      const started = await client.sessions.start({ title: 'Release prep', client: 'integration-test' });
      const early = await client.context.get({
        query: 'release',
        strategy: 'baseline',
        sessionId: started.sessionId,
        budgetTokens: 1,
        includeSessionSummary: true,
      });
      expect(early.rules.map((memory) => memory.content)).toContain('Always run the linter before a release');
      expect(early.session).toMatchObject({ compactionRequired: true, triggerHint: 'count' });
      expect(early.sessionSummary).toBeNull();

      await client.sessions.checkpoint({ sessionId: started.sessionId, content: 'Ran the linter', kind: 'summary' });
      const ended = await client.sessions.end({ sessionId: started.sessionId, status: 'closed' });
      expect(ended.session.status).toBe('closed');
      const snapshot = await client.sessions.snapshot(started.sessionId);
      expect(snapshot.snapshot.sessionId).toBe(started.sessionId);

      const late = await client.context.get({
        query: 'release',
        sessionId: started.sessionId,
        includeSessionSummary: true,
      });
      expect(late.sessionSummary?.id).toBe(snapshot.snapshot.id);
      expect(late.session).toEqual({ compactionRequired: false, triggerHint: null, reason: null });
    });

    it('upserts, lists, promotes and deletes skill files', async () => {
      const upserted = await client.skills.upsert({ path: 'release.md', content: '# Release\n1. Lint\n2. Tag' });
      expect(upserted.created).toBe(true);
      const listed = await client.skills.list();
      expect(listed.skillFiles.map((file) => file.path)).toContain('release.md');

      const session = await client.sessions.start({ title: 'Hotfix' });
      for (const step of ['Reproduce the bug', 'Write a failing test', 'Fix and ship']) {
        await client.sessions.checkpoint({ sessionId: session.sessionId, content: step });
      }
      await client.sessions.end({ sessionId: session.sessionId });
      const promoted = await client.skills.promote({ sessionId: session.sessionId, path: 'hotfix.md', maxSteps: 5 });
      expect(promoted.source.sessionId).toBe(session.sessionId);

      await expect(client.skills.delete({ path: 'release.md' })).resolves.toMatchObject({ deleted: true });
      const afterDelete = await client.skills.list();
      expect(afterDelete.skillFiles.map((file) => file.path)).not.toContain('release.md');
    });

    it('maps a bad key to AuthError', async () => {
      const baseUrl = transport === 'mcp' ? `${server.url}/api/mcp` : server.url;
      const stranger = createMemoryClient({ baseUrl, apiKey: `mem_${'f'.repeat(64)}`, maxRetries: 0 });
      const error = await stranger.memories.list().catch((caught: unknown) => caught);
      expect(AuthError.isInstance(error)).toBe(true);
      await stranger.close();
    });

    it.runIf(transport === 'mcp')('refuses methods without an MCP tool', async () => {
      await expect(client.health()).rejects.toBeInstanceOf(UnsupportedOperationError);
      await expect(client.sessions.list()).rejects.toBeInstanceOf(UnsupportedOperationError);
      await expect(client.memories.restore({ id: 'any' })).rejects.toBeInstanceOf(UnsupportedOperationError);
    });

    it.runIf(transport === 'sdk_http')(
      'lists sessions, reads their events and restores a forgotten memory',
      async () => {
        const started = await client.sessions.start({ title: 'Console extensions' });
        await client.sessions.checkpoint({ sessionId: started.sessionId, content: 'First step' });
        const active = await client.sessions.list({ status: 'active', limit: 10 });
        expect(active.sessions.find((session) => session.id === started.sessionId)?.totals).toMatchObject({
          turnCount: 1,
          eventCount: 1,
        });
        const events = await client.sessions.events({ sessionId: started.sessionId });
        expect(events.events.map((event) => event.content)).toEqual(['First step']);
        await expect(client.sessions.events({ sessionId: 'no-such-session' })).rejects.toBeInstanceOf(NotFoundError);

        const { id } = await client.memories.add({ content: 'Restore me after a forget' });
        await client.memories.forget({ id });
        await expect(client.memories.restore({ id })).resolves.toMatchObject({ id, restored: true });
        expect((await client.memories.list()).memories.map((memory) => memory.id)).toContain(id);
        await expect(client.memories.restore({ id })).rejects.toMatchObject({
          code: 'MEMORY_NOT_DELETED',
          status: 409,
        });
      },
    );
  });
});
