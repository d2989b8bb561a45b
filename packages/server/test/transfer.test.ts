import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../src/store/database.js';
import { runCapturing } from './cli-run.js';
import { createTestServer, type TestServer } from './harness.js';

const directories: string[] = [];
function temporaryFolder(): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'memory-service-transfer-'));
  directories.push(directory);
  return directory;
}

afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

/** The record lines of an export: the header (its time differs) and the trailer (its checksum covers it) dropped. */
function recordLines(file: string): string[] {
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  return lines.slice(1, -1);
}

function records(file: string): Array<Record<string, any>> {
  return recordLines(file).map((line) => JSON.parse(line));
}

async function exportTo(dataDir: string, file: string, extra: string[] = []) {
  const run = await runCapturing(['export', file, '--force', ...extra], { MEMORY_DATA_DIR: dataDir });
  expect(run.stderr).not.toContain('memory-service:');
  expect(run.code).toBe(0);
  return run;
}

/** A tenant database file of a server, by tenant (null: the workspace's own). */
async function tenantDatabase(server: TestServer, tenantId: string | null): Promise<Database> {
  const location = await server.services.resolver.location('default', tenantId, new Date());
  return Database.open(location!);
}

/**
 * A source data dir with every kind of record: memories with every field (tags, paths, metadata, userId, projectId,
 * occurredAt), an edit history, a superseded chain, a forgotten memory, graph nodes, links and edges from the indexer,
 * sessions with events and a snapshot, skill files; in the workspace's own database and in a tenant.
 */
async function seed(server: TestServer): Promise<void> {
  for (const scope of [{}, { tenantId: 'acme', userId: 'ada', projectId: 'repo-x' }]) {
    const first = await server.post<{ id: string }>('/memories/add', {
      content: 'Deploys go out on Fridays after the review',
      type: 'decision',
      tags: ['deploy', 'process'],
      paths: ['ops/deploy.md'],
      category: 'operations',
      metadata: { source: 'retro', weight: 2, nested: { list: [1, 'two'] } },
      occurredAt: '2024-03-01T09:30:00.000Z',
      scope,
    });
    await server.post('/memories/edit', {
      id: first.id,
      content: 'Deploys go out on Thursdays after the review',
      scope,
    });
    const old = await server.post<{ id: string }>('/memories/add', {
      content: 'The staging database is Postgres 14',
      scope,
    });
    const newer = await server.post<{ id: string }>('/memories/add', {
      content: 'The staging database is Postgres 16',
      scope,
    });
    const gone = await server.post<{ id: string }>('/memories/add', { content: 'Temporary note about pizza', scope });
    await server.post('/memories/forget', { id: gone.id, scope });
    await server.post('/memories/add', { content: 'Always run the linter before pushing', type: 'rule', scope });
    const started = await server.post<{ sessionId: string }>('/sessions/start', { title: 'Planning', scope });
    await server.post('/sessions/checkpoint', { sessionId: started.sessionId, content: 'we plan the release', scope });
    await server.post('/sessions/checkpoint', {
      sessionId: started.sessionId,
      content: 'release on Thursday',
      role: 'assistant',
      scope,
    });
    await server.post('/sessions/end', { sessionId: started.sessionId, scope });
    await server.post('/skills/files/upsert', {
      path: 'skills/release.md',
      content: '# Release\n1. tag\n2. ship',
      scope,
    });
    await server.indexed();
    // A superseded chain as consolidation leaves it (supersededBy, its time, the supersedes edge).
    const database = await tenantDatabase(server, (scope as { tenantId?: string }).tenantId ?? null);
    try {
      await database.run('UPDATE memories SET superseded_by = ?, updated_at = ? WHERE id = ?', [
        newer.id,
        '2024-04-01T00:00:00.000Z',
        old.id,
      ]);
      await database.run(
        `INSERT OR REPLACE INTO graph_edges (source_memory_id, target_memory_id, edge_type, confidence, origin, detail, created_at)
         VALUES (?, ?, 'supersedes', 0.9, 'consolidation', '{"reason":"newer"}', '2024-04-01T00:00:00.000Z')`,
        [newer.id, old.id],
      );
    } finally {
      await database.close();
    }
  }
}

describe('memory-service export and import', () => {
  let source: TestServer;
  let exported: string;

  beforeAll(async () => {
    source = await createTestServer();
    await seed(source);
    exported = path.join(temporaryFolder(), 'all.jsonl');
    await exportTo(source.dataDir, exported);
  }, 120_000);

  afterAll(async () => {
    await source.close();
  });

  it('writes a header, every kind of record and a trailer', () => {
    const lines = readFileSync(exported, 'utf8').trimEnd().split('\n');
    const header = JSON.parse(lines[0]!);
    expect(header).toMatchObject({ format: 'memory-service-export', version: 1, withVectors: false });
    const trailer = JSON.parse(lines.at(-1)!);
    expect(trailer.record).toBe('end');
    const all = records(exported);
    expect(trailer.records).toBe(all.length);
    const kinds = new Set(all.map((record) => record.record));
    for (const kind of [
      'tenant',
      'memory',
      'memoryVersion',
      'graphNode',
      'graphLink',
      'graphEdge',
      'session',
      'sessionEvent',
      'sessionSnapshot',
      'skillFile',
    ]) {
      expect(kinds.has(kind), kind).toBe(true);
    }
    expect(all.filter((record) => record.record === 'tenant').map((record) => record.tenantId)).toEqual([null, 'acme']);
    const edited = all.find((record) => record.record === 'memory' && record.content.includes('Thursdays'));
    expect(edited).toMatchObject({
      tags: ['deploy', 'process'],
      paths: ['ops/deploy.md'],
      metadata: { source: 'retro', weight: 2, nested: { list: [1, 'two'] } },
      occurredAt: '2024-03-01T09:30:00.000Z',
    });
    expect(
      all.some((record) => record.record === 'memory' && record.supersededBy !== null && record.supersededAt),
    ).toBe(true);
    expect(all.some((record) => record.record === 'memory' && record.deletedAt !== null)).toBe(true);
    expect(
      all.some((record) => record.record === 'memory' && record.userId === 'ada' && record.projectId === 'repo-x'),
    ).toBe(true);
  });

  it('reproduces every record in an empty data dir, and a second import changes nothing', async () => {
    const target = path.join(temporaryFolder(), 'data');
    const run = await runCapturing(['import', exported], { MEMORY_DATA_DIR: target });
    expect(run.stderr).not.toContain('memory-service:');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('into 2 databases');
    expect(run.stdout).toMatch(/\d+ memories are queued for indexing/);
    const again = path.join(temporaryFolder(), 'again.jsonl');
    await exportTo(target, again);
    // Field by field, record by record, in the same order.
    expect(records(again)).toEqual(records(exported));

    const second = await runCapturing(['import', exported], { MEMORY_DATA_DIR: target });
    expect(second.code).toBe(0);
    const twice = path.join(temporaryFolder(), 'twice.jsonl');
    await exportTo(target, twice);
    expect(recordLines(twice)).toEqual(recordLines(exported));

    // A server on it serves the history and the superseded chain as the source did.
    const server = await createTestServer({}, target);
    try {
      // The first section is the workspace's own database.
      const edited = records(exported).find(
        (record) => record.record === 'memory' && record.content.includes('Thursdays'),
      );
      const history = await server.call('GET', `/memories/${edited!.id}/history`);
      expect(history.status).toBe(200);
      expect(JSON.stringify(history.body.data)).toContain('Fridays');
      const listed = await server.post<{ memories: Array<{ content: string }> }>('/memories/list', {
        scope: { tenantId: 'acme', userId: 'ada', projectId: 'repo-x' },
      });
      expect(listed.memories.map((memory) => memory.content)).toContain('Always run the linter before pushing');
    } finally {
      await server.close();
    }
  }, 120_000);

  it('picks one tenant with --tenant, and carries vectors with --with-vectors', async () => {
    const file = path.join(temporaryFolder(), 'acme.jsonl');
    await exportTo(source.dataDir, file, ['--tenant', 'acme', '--with-vectors']);
    const all = records(file);
    expect(all.filter((record) => record.record === 'tenant')).toEqual([
      { record: 'tenant', workspace: 'default', workspaceName: 'Default workspace', tenantId: 'acme' },
    ]);
    const vectors = all.filter((record) => record.record === 'vector');
    expect(vectors.length).toBeGreaterThan(0);
    expect(vectors[0]!.values).toHaveLength(vectors[0]!.dimensions);
    const target = path.join(temporaryFolder(), 'data');
    expect((await runCapturing(['import', file, '--with-vectors'], { MEMORY_DATA_DIR: target })).code).toBe(0);
    const back = path.join(temporaryFolder(), 'back.jsonl');
    await exportTo(target, back, ['--with-vectors']);
    expect(records(back)).toEqual(all);
  }, 120_000);

  it('refuses a truncated file, a corrupted line and an unknown version, naming the line, with nothing written', async () => {
    const lines = readFileSync(exported, 'utf8').trimEnd().split('\n');
    const folder = temporaryFolder();
    const memoryLine = lines.findIndex((line) => line.includes('"record":"memory"'));
    const cases: Array<{ name: string; text: string; message: RegExp }> = [
      { name: 'truncated', text: `${lines.slice(0, -3).join('\n')}\n`, message: /truncated/ },
      {
        name: 'cut mid-line',
        text: readFileSync(exported, 'utf8').slice(0, Math.floor(readFileSync(exported).length / 2)),
        message: /truncated|not JSON/,
      },
      {
        name: 'edited',
        text: `${lines.map((line, index) => (index === memoryLine ? line.replace('Deploys', 'Dexploys') : line)).join('\n')}\n`,
        message: /checksum does not match/,
      },
      {
        name: 'bad json',
        text: `${lines.map((line, index) => (index === memoryLine ? line.slice(0, -1) : line)).join('\n')}\n`,
        message: new RegExp(`line ${memoryLine + 1}: the line is not JSON`),
      },
      {
        name: 'invalid record',
        text: `${lines.map((line, index) => (index === memoryLine ? line.replace(/"type":"\w+"/, '"type":"bogus"') : line)).join('\n')}\n`,
        message: new RegExp(`line ${memoryLine + 1}: not a valid record`),
      },
      {
        name: 'unknown version',
        text: `${[lines[0]!.replace('"version":1', '"version":2'), ...lines.slice(1)].join('\n')}\n`,
        message: /line 1: version 2 of the export format is unknown/,
      },
    ];
    for (const { name, text, message } of cases) {
      const file = path.join(folder, `${name}.jsonl`);
      writeFileSync(file, text);
      const target = path.join(folder, `${name}-data`);
      const run = await runCapturing(['import', file], { MEMORY_DATA_DIR: target });
      expect(run.code, name).toBe(1);
      expect(run.stderr, name).toMatch(/import refused, nothing was written/);
      expect(run.stderr, name).toMatch(message);
      expect(existsSync(target), name).toBe(false);
    }
  });

  it('refuses a damaged file into an existing data dir without changing it', async () => {
    const target = path.join(temporaryFolder(), 'data');
    const server = await createTestServer({}, target);
    await server.post('/memories/add', { content: 'Existing memory stays as it is' });
    await server.close();
    const before = path.join(temporaryFolder(), 'before.jsonl');
    await exportTo(target, before);
    const lines = readFileSync(exported, 'utf8').trimEnd().split('\n');
    const damaged = path.join(temporaryFolder(), 'damaged.jsonl');
    // Valid up to its last record: only the trailer is missing.
    writeFileSync(damaged, `${lines.slice(0, -1).join('\n')}\n`);
    expect((await runCapturing(['import', damaged], { MEMORY_DATA_DIR: target })).code).toBe(1);
    const after = path.join(temporaryFolder(), 'after.jsonl');
    await exportTo(target, after);
    expect(recordLines(after)).toEqual(recordLines(before));
  }, 60_000);
});

describe('importing mem0 memories', () => {
  const items = [
    {
      id: '7f6d2a1c-3b4e-4c5d-8e9f-0a1b2c3d4e5f',
      memory: 'Prefers morning meetings',
      hash: 'a1b2c3',
      metadata: { type: 'preference' },
      categories: ['work', 'schedule'],
      created_at: '2024-07-20T01:23:45.123456-07:00',
      updated_at: '2024-07-21T10:00:00.000000-07:00',
      user_id: 'arjun',
      agent_id: 'planner',
      run_id: 'run-7',
    },
    {
      id: '8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d',
      memory: 'Works at TechCorp as a senior engineer',
      hash: 'd4e5f6',
      metadata: null,
      created_at: '2024-07-22T08:00:00Z',
      updated_at: null,
      user_id: 'dev',
    },
  ];

  async function importAndList(file: string, extra: string[] = []) {
    const target = path.join(temporaryFolder(), 'data');
    const run = await runCapturing(['import', file, ...extra], { MEMORY_DATA_DIR: target });
    expect(run.stderr).not.toContain('memory-service:');
    expect(run.code).toBe(0);
    const again = await runCapturing(['import', file, ...extra], { MEMORY_DATA_DIR: target });
    expect(again.code).toBe(0);
    const server = await createTestServer({}, target);
    try {
      const arjun = await server.post<{ memories: Array<Record<string, any>> }>('/memories/list', {
        scope: { userId: 'arjun', ...(extra.includes('--mem0-project') ? { projectId: 'planner' } : {}) },
      });
      const dev = await server.post<{ memories: Array<Record<string, any>> }>('/memories/list', {
        scope: { userId: 'dev' },
      });
      return { run, arjun: arjun.memories, dev: dev.memories };
    } finally {
      await server.close();
    }
  }

  it('reads mem0 JSON lines: user_id is the userId, mem0 ids and agent/run ids are kept in metadata', async () => {
    const file = path.join(temporaryFolder(), 'mem0.jsonl');
    writeFileSync(file, `${items.map((item) => JSON.stringify(item)).join('\n')}\n`);
    const { run, arjun, dev } = await importAndList(file);
    expect(run.stdout).toContain('(mem0-jsonl)');
    // Imported twice: still one of each.
    expect(arjun).toHaveLength(1);
    expect(arjun[0]).toMatchObject({
      id: items[0]!.id,
      content: 'Prefers morning meetings',
      tags: ['work', 'schedule'],
      metadata: {
        type: 'preference',
        mem0: { id: items[0]!.id, hash: 'a1b2c3', agent_id: 'planner', run_id: 'run-7' },
      },
      createdAt: '2024-07-20T08:23:45.123Z',
      updatedAt: '2024-07-21T17:00:00.000Z',
    });
    expect(dev.map((memory) => memory.content)).toEqual(['Works at TechCorp as a senior engineer']);
  }, 60_000);

  it("reads mem0's getAll JSON ({ results }), with agent_id as the projectId when asked", async () => {
    const file = path.join(temporaryFolder(), 'mem0.json');
    writeFileSync(file, JSON.stringify({ results: items }, null, 2));
    const { run, arjun, dev } = await importAndList(file, ['--mem0-project', 'agent_id']);
    expect(run.stdout).toContain('(mem0-json)');
    expect(arjun.map((memory) => [memory.content, memory.projectId])).toEqual([
      ['Prefers morning meetings', 'planner'],
    ]);
    expect(dev).toHaveLength(1);
  }, 60_000);

  it('refuses a mem0 memory without content, naming its line', async () => {
    const file = path.join(temporaryFolder(), 'bad.jsonl');
    writeFileSync(file, `${JSON.stringify(items[0])}\n${JSON.stringify({ ...items[1], memory: '   ' })}\n`);
    const target = path.join(temporaryFolder(), 'data');
    const run = await runCapturing(['import', file], { MEMORY_DATA_DIR: target });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('line 2');
    expect(existsSync(target)).toBe(false);
  });
});
