import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TenantRow } from '../src/store/tenant-registry.js';
import { createTestServer, type TestResponse, type TestServer } from './harness.js';
import { freePort, type SqldServer, startSqld } from './sqld.js';

/**
 * A full disk, a process out of descriptors, and an attached database that is down, refuses its token or is over its
 * size cap each answer a code of their own instead of 500 INTERNAL_ERROR, so nobody takes them for a bug.
 */

/** Text SQLite cannot pack into pages it already has: distinct words, so the FTS index grows with the content. */
function bulkyContent(seed: number): string {
  const words: string[] = [];
  for (let index = 0; words.join(' ').length < 7_500; index += 1)
    words.push(`w${seed}x${index}q${(index * 7919) % 997}`);
  return words.join(' ').slice(0, 7_500);
}

/** Adds bulky memories until one fails (at most `attempts`), and returns that answer. */
async function addUntilRefused(server: TestServer, tenantId: string, attempts = 40): Promise<TestResponse> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const response = await server.call('POST', '/memories/add', {
      content: bulkyContent(attempt),
      scope: { tenantId },
    });
    if (!response.body.ok) return response;
  }
  throw new Error(`${attempts} adds all succeeded`);
}

/** What no infrastructure answer may carry: SQL, a path of the server, a host, a token. */
function expectNothingLeaked(response: TestResponse, ...secrets: string[]): void {
  const text = JSON.stringify(response.body);
  for (const forbidden of ['INSERT', 'SELECT', 'SQLITE_', '/tmp', tmpdir(), '127.0.0.1', 'http', ...secrets])
    expect(text).not.toContain(forbidden);
}

function mapping(tenantId: string, row: Partial<TenantRow>): TenantRow {
  const now = new Date().toISOString();
  return {
    owner_id: 'default',
    tenant_id: tenantId,
    mode: 'attach',
    status: 'ready',
    source: 'override',
    db_url: null,
    db_token_encrypted: null,
    db_name: 'remote',
    metadata: '{}',
    last_error: null,
    created_at: now,
    updated_at: now,
    ...row,
  };
}

describe('a full file database', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers 507 STORAGE_FULL, not retryable, naming no path or SQL', async () => {
    await server.post('/memories/add', { content: 'the first memory of a tenant', scope: { tenantId: 'full' } });
    const handle = await server.services.resolver.resolve('default', 'full', new Date());
    // SQLite's own cap on the connection that writes: past it every write that needs a page fails with SQLITE_FULL,
    // exactly as on a full disk.
    const pages = await handle.database.get<{ page_count: number }>('PRAGMA page_count');
    await handle.database.run(`PRAGMA max_page_count = ${Number(pages?.page_count)}`);
    const refused = await addUntilRefused(server, 'full');
    expect(refused.status).toBe(507);
    expect(refused.body.error).toMatchObject({
      code: 'STORAGE_FULL',
      status: 507,
      type: 'internal_error',
      retryable: false,
    });
    expect(refused.headers.get('retry-after')).toBeNull();
    expectNothingLeaked(refused);
  });
});

/** Whether this machine can lower a running process's descriptor limit (util-linux `prlimit`). */
const canLimitDescriptors = (() => {
  try {
    execFileSync('prlimit', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** This process's descriptor limit as `soft:hard`. */
function descriptorLimit(): string {
  return execFileSync('prlimit', [
    '--pid',
    String(process.pid),
    '--nofile',
    '--raw',
    '--noheadings',
    '--output=SOFT,HARD',
  ])
    .toString()
    .trim()
    .split(/\s+/)
    .join(':');
}

/** Resolves once this process's open descriptors have not changed for a second (10 s at most). */
async function descriptorsSettled(): Promise<void> {
  const count = () => readdirSync('/proc/self/fd').length;
  let last = count();
  let stillSince = Date.now();
  for (const until = Date.now() + 10_000; Date.now() < until && Date.now() - stillSince < 1_000; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = count();
    if (now !== last) {
      last = now;
      stillSince = Date.now();
    }
  }
}

describe('a process out of file descriptors', () => {
  let server: TestServer;
  beforeAll(async () => {
    // One database worker: the control database's only connection is open already, so the one descriptor the add
    // needs is the new tenant's file, opened on this thread.
    server = await createTestServer({ databaseWorkers: 1 });
    await server.post('/memories/add', { content: 'warm up the workspace' });
  });
  afterAll(async () => {
    await server.close();
  });

  it.skipIf(!canLimitDescriptors)(
    'answers 503 SERVER_RESOURCES_EXHAUSTED, retryable; the same add succeeds once descriptors are free',
    async () => {
      const original = descriptorLimit();
      const [, hard] = original.split(':');
      // A database worker releases a closed connection's files at its next collection (up to ~100 ms after the
      // close, workers/database-worker.ts): wait until the count holds still, so none is freed while they are taken.
      await descriptorsSettled();
      const highest = Math.max(...readdirSync('/proc/self/fd').map(Number));
      const held: number[] = [];
      let response: TestResponse;
      try {
        // Every descriptor below the new soft limit taken: the next open of this process fails with EMFILE.
        execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${highest + 16}:${hard}`]);
        try {
          for (;;) held.push(openSync('/dev/null', 'r'));
        } catch (error) {
          expect((error as { code?: unknown }).code).toBe('EMFILE');
        }
        response = await server.call('POST', '/memories/add', { content: 'a new tenant', scope: { tenantId: 'fd' } });
      } finally {
        for (const descriptor of held) closeSync(descriptor);
        execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${original}`]);
      }
      expect(response.status).toBe(503);
      expect(response.body.error).toMatchObject({
        code: 'SERVER_RESOURCES_EXHAUSTED',
        type: 'internal_error',
        retryable: true,
        details: { retryAfterSeconds: 5 },
      });
      expect(response.headers.get('retry-after')).toBe('5');
      expectNothingLeaked(response);
      const retried = await server.call('POST', '/memories/add', {
        content: 'a new tenant',
        scope: { tenantId: 'fd' },
      });
      expect(retried.status).toBe(201);
    },
  );
});

describe('an attached libSQL server that is down or refuses the token', () => {
  const keyDirectory = mkdtempSync(path.join(tmpdir(), 'sqld-jwt-'));
  let sqld: SqldServer;
  let server: TestServer;
  beforeAll(async () => {
    const keyFile = path.join(keyDirectory, 'jwt-public.pem');
    writeFileSync(keyFile, generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }));
    sqld = await startSqld({ args: ['--auth-jwt-key-file', keyFile] });
    // The servers of these tests listen on loopback, which attach refuses unless the operator allows it.
    server = await createTestServer({ attachAllowPrivateNetworks: true });
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await sqld.stop();
    rmSync(keyDirectory, { recursive: true, force: true });
  });

  // Mappings saved as an attach that passed its check would be: the database went away, or its key changed, after.
  const attachSaved = async (tenantId: string, url: string, token: string) =>
    server.services.registry.save(
      mapping(tenantId, { db_url: url, db_token_encrypted: server.services.secrets.encrypt(token) }),
    );

  it('answers 503 TENANT_DATABASE_UNAVAILABLE with Retry-After when nothing listens there', async () => {
    await attachSaved('gone', `http://127.0.0.1:${await freePort()}`, 'a-token-for-a-server-that-is-gone');
    const response = await server.call('POST', '/memories/add', { content: 'x', scope: { tenantId: 'gone' } });
    expect(response.status).toBe(503);
    expect(response.body.error).toMatchObject({
      code: 'TENANT_DATABASE_UNAVAILABLE',
      type: 'internal_error',
      retryable: true,
      details: { retryAfterSeconds: 5 },
    });
    expect(response.headers.get('retry-after')).toBe('5');
    expectNothingLeaked(response, 'a-token-for-a-server-that-is-gone');
    // A read says the same.
    const read = await server.call('POST', '/context/get', { query: 'x', scope: { tenantId: 'gone' } });
    expect(read.body.error).toMatchObject({ code: 'TENANT_DATABASE_UNAVAILABLE', status: 503 });
  });

  it('answers 502 TENANT_DATABASE_CREDENTIALS_REJECTED, not retryable, when the server refuses the token (401)', async () => {
    const stale = 'eyJhbGciOiJFZERTQSJ9.eyJleHAiOjF9.c3RhbGU';
    await attachSaved('rejected', sqld.url, stale);
    const response = await server.call('POST', '/memories/add', { content: 'x', scope: { tenantId: 'rejected' } });
    expect(response.status).toBe(502);
    expect(response.body.error).toMatchObject({
      code: 'TENANT_DATABASE_CREDENTIALS_REJECTED',
      type: 'internal_error',
      retryable: false,
    });
    expectNothingLeaked(response, stale);
  });
});

describe('a tenant namespace over its size cap on a libSQL server', () => {
  let sqld: SqldServer;
  let server: TestServer;
  beforeAll(async () => {
    sqld = await startSqld({ namespaces: true });
    server = await createTestServer({
      tenantProvisioner: 'sqld',
      sqldAdminUrl: sqld.adminUrl ?? undefined,
      sqldUrl: sqld.url,
    });
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await sqld.stop();
  });

  it('answers 507 STORAGE_FULL, not retryable, once the namespace reaches max_db_size', async () => {
    await server.post('/memories/add', { content: 'the first memory', scope: { tenantId: 'capped' } });
    const namespace = (await server.services.registry.find('default', 'capped'))?.db_name;
    expect(namespace).toBeTruthy();
    // sqld's per-namespace cap (its admin API); a cap below the current size stops the database growing.
    const capped = await fetch(`${sqld.adminUrl}/v1/namespaces/${namespace}/config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ block_reads: false, block_writes: false, max_db_size: '8KB' }),
    });
    expect(capped.ok).toBe(true);
    const refused = await addUntilRefused(server, 'capped');
    expect(refused.status).toBe(507);
    expect(refused.body.error).toMatchObject({ code: 'STORAGE_FULL', type: 'internal_error', retryable: false });
    expectNothingLeaked(refused, String(namespace));
  });
});
