import { LIMITS } from '@memory-service/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Database } from '../src/store/database.js';
import { createTestServer, TEST_KEY, type TestServer } from './harness.js';

/*
 * skills/files/list pages by bytes, so that no list holds the server: up to 500 whole files (360 MB) read into memory
 * first made 10 such lists at once take 69 s each at 5 GB RSS. A page carries whole files within
 * LIMITS.skillListBytes, says what it left out, and hands a cursor for the rest.
 */

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

interface ListedFile {
  id: string;
  path: string;
  title: string | null;
  content: string;
  userId: string | null;
  metadata: Record<string, unknown>;
}
interface Page {
  skillFiles: ListedFile[];
  count: number;
  truncated: boolean;
  omitted: number;
  nextCursor: string | null;
}

/** The text of a listed file the budget counts: UTF-8 bytes of path, title, content and metadata. */
function textBytes(file: ListedFile): number {
  return (
    Buffer.byteLength(file.path) +
    Buffer.byteLength(file.title ?? '') +
    Buffer.byteLength(file.content) +
    Buffer.byteLength(JSON.stringify(file.metadata))
  );
}

/** A skill file body of exactly `length` characters. */
function skillContent(name: string, length: number): string {
  const head = `# ${name}\n`;
  return head + 'x'.repeat(length - head.length);
}

/** Twelve of the largest ASCII files: 1.44 MB, more than one page holds. */
async function upsertLargeFiles(scope: Record<string, string>): Promise<string[]> {
  const paths: string[] = [];
  for (let index = 0; index < 12; index += 1) {
    const path = `skills/${String(index).padStart(2, '0')}.md`;
    await server.post('/skills/files/upsert', { path, content: skillContent(path, LIMITS.skillContent.max), scope });
    paths.push(path);
  }
  return paths;
}

describe('skills/files/list: whole files within LIMITS.skillListBytes a page', () => {
  it('stops a page at the byte budget, says so, and reads the rest through nextCursor', async () => {
    const scope = { tenantId: 'list-budget' };
    const paths = await upsertLargeFiles(scope);

    const first = await server.post<Page>('/skills/files/list', { scope });
    expect(first.count).toBe(first.skillFiles.length);
    expect(first.skillFiles.reduce((total, file) => total + textBytes(file), 0)).toBeLessThanOrEqual(
      LIMITS.skillListBytes,
    );
    expect(first.count).toBeGreaterThan(0);
    expect(first.count).toBeLessThan(12);
    expect(first.skillFiles.every((file) => file.content.length === LIMITS.skillContent.max)).toBe(true);
    expect(first.truncated).toBe(true);
    expect(first.omitted).toBe(12 - first.count);
    expect(first.nextCursor).toEqual(expect.any(String));

    const listed = [...first.skillFiles];
    let cursor = first.nextCursor;
    for (let pages = 1; cursor !== null && pages < 12; pages += 1) {
      const page = await server.post<Page>('/skills/files/list', { scope, cursor });
      expect(page.skillFiles.reduce((total, file) => total + textBytes(file), 0)).toBeLessThanOrEqual(
        LIMITS.skillListBytes,
      );
      listed.push(...page.skillFiles);
      cursor = page.nextCursor;
      if (cursor === null) expect(page).toMatchObject({ truncated: false, omitted: 0 });
    }
    expect(cursor).toBeNull();
    expect(listed.map((file) => file.path)).toEqual(paths);
  });

  it('reads no more file content from the database than the budget', async () => {
    const scope = { tenantId: 'list-reads' };
    await upsertLargeFiles(scope);
    let contentBytes = 0;
    const all = Database.prototype.all;
    vi.spyOn(Database.prototype, 'all').mockImplementation(async function (this: Database, sql, args) {
      const rows = await all.call(this, sql, args);
      for (const row of rows as Array<Record<string, unknown>>) {
        if (typeof row.content === 'string') contentBytes += Buffer.byteLength(row.content);
      }
      return rows as never;
    });
    const page = await server.post<Page>('/skills/files/list', { scope, limit: LIMITS.skillListLimit.max });
    expect(page.truncated).toBe(true);
    expect(contentBytes).toBeGreaterThan(0);
    expect(contentBytes).toBeLessThanOrEqual(LIMITS.skillListBytes);
  });

  it('keeps limit: a full page of small files has a cursor, nothing omitted, own file before the shared one', async () => {
    const own = { tenantId: 'list-limit', userId: 'ada' };
    const shared = { tenantId: 'list-limit' };
    await server.post('/skills/files/upsert', { path: 'a.md', content: '# own a', scope: own });
    await server.post('/skills/files/upsert', { path: 'a.md', content: '# shared a', scope: shared });
    await server.post('/skills/files/upsert', { path: 'b.md', content: '# shared b', scope: shared });

    const seen: string[] = [];
    let cursor: string | null | undefined;
    do {
      const page: Page = await server.post<Page>('/skills/files/list', { scope: own, limit: 1, cursor });
      expect(page).toMatchObject({ count: 1, truncated: false, omitted: 0 });
      seen.push(`${page.skillFiles[0]?.path} ${page.skillFiles[0]?.userId ?? 'shared'}`);
      cursor = page.nextCursor;
    } while (cursor !== null && seen.length < 5);
    expect(seen).toEqual(['a.md ada', 'a.md shared', 'b.md shared']);

    const all = await server.post<Page>('/skills/files/list', { scope: own });
    expect(all).toMatchObject({ count: 3, truncated: false, omitted: 0, nextCursor: null });
  });

  it('refuses a cursor it did not give: 400 INVALID_REQUEST naming cursor', async () => {
    const made = Buffer.from(JSON.stringify(['a.md', 2, 0, 'x'])).toString('base64url');
    for (const cursor of ['not a cursor!', made, 'e30', 'c'.repeat(LIMITS.skillListCursor.max + 1)]) {
      const response = await server.call('POST', '/skills/files/list', { cursor });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'cursor' } });
    }
  });

  it('pages the MCP tool list_skill_files the same way', async () => {
    const headers = {
      authorization: `Bearer ${TEST_KEY}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const callTool = async (args: Record<string, unknown>): Promise<Page> => {
      const body = {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'list_skill_files', arguments: args },
      };
      const response = await server.app.request('/api/mcp', { method: 'POST', headers, body: JSON.stringify(body) });
      const { result } = (await response.json()) as { result: { isError?: boolean; structuredContent: any } };
      expect(result.isError ?? false).toBe(false);
      return result.structuredContent.data as Page;
    };
    const first = await callTool({ tenant_id: 'list-budget' });
    expect(first.skillFiles.reduce((total, file) => total + textBytes(file), 0)).toBeLessThanOrEqual(
      LIMITS.skillListBytes,
    );
    expect(first).toMatchObject({ truncated: true, nextCursor: expect.any(String) });
    const second = await callTool({ tenant_id: 'list-budget', cursor: first.nextCursor });
    expect(second.skillFiles[0]?.path).not.toBe(first.skillFiles[0]?.path);
    expect(first.count + second.count).toBe(12);
  });
});
