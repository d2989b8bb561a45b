import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServerConfig } from '../src/config.js';
import { createTestServer, type TestResponse, type TestServer } from './harness.js';
import { type SqldServer, startSqld } from './sqld.js';

/**
 * A request to an already attached database re-checks the attach policy of the server's
 * CURRENT configuration (tenancy/resolver.ts passes its configuration to `mappingLocation`), not only the addresses
 * no configuration allows. Server A attaches a tenant to a libSQL server on 127.0.0.1 while loopback is allowed;
 * server B, on the same data dir, no longer allows it: B's requests for that tenant are refused and never connect.
 *
 * Two gaps this test found are closed: the refusal answered 500 INTERNAL_ERROR (AttachRefusal reached the pipeline
 * unclassified; it is TENANT_DATABASE_UNREACHABLE now), and MEMORY_ATTACH_ALLOWED_HOSTS was checked only when
 * attaching (the attach fetch now checks the name's rules, `AttachPolicy.refusesName`, on every request).
 */

const SECRET_KEY = 'ab'.repeat(32);
const TOKEN = 'attach-token';

/** A TCP proxy on 127.0.0.1 in front of a real libSQL server, counting every connection it accepts. */
interface CountingProxy {
  port: number;
  /** TCP connections accepted so far. */
  connections: number;
  /** Bytes the clients sent so far (a request on a kept-alive socket counts here, not in `connections`). */
  bytesReceived: number;
  /** Cuts every open connection (kept-alive sockets of a closed server must not carry the next one's requests). */
  drop(): void;
  close(): Promise<void>;
}

async function startCountingProxy(targetPort: number): Promise<CountingProxy> {
  const state = { connections: 0, bytesReceived: 0 };
  const sockets = new Set<Socket>();
  const server: Server = createServer((incoming) => {
    state.connections += 1;
    const outgoing = connect(targetPort, '127.0.0.1');
    for (const socket of [incoming, outgoing]) {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      socket.on('error', () => {
        incoming.destroy();
        outgoing.destroy();
      });
    }
    incoming.on('data', (chunk: Buffer) => {
      state.bytesReceived += chunk.length;
    });
    incoming.pipe(outgoing).pipe(incoming);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return state.connections;
    },
    get bytesReceived() {
      return state.bytesReceived;
    },
    drop: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let sqld: SqldServer;
let proxy: CountingProxy;
let dataDir: string;
let attachUrl: string;
const open: TestServer[] = [];

async function serverWith(overrides: Partial<ServerConfig>): Promise<TestServer> {
  const server = await createTestServer({ secretKey: SECRET_KEY, ...overrides }, dataDir);
  open.push(server);
  return server;
}

/**
 * Closes the servers, then cuts their connections at the proxy: node:http's global agent keeps sockets alive across
 * servers of one process, and the next server must make (or not make) connections of its own.
 */
async function closeAll(): Promise<void> {
  for (const server of open.splice(0)) await server.close();
  proxy?.drop();
  await new Promise((resolve) => setTimeout(resolve, 100));
}

function listTenant(server: TestServer) {
  return server.call('POST', '/memories/list', { scope: { tenantId: 'x' } });
}

beforeAll(async () => {
  sqld = await startSqld();
  proxy = await startCountingProxy(Number(new URL(sqld.url).port));
  attachUrl = `http://127.0.0.1:${proxy.port}`;
  dataDir = mkdtempSync(path.join(tmpdir(), 'memory-service-attach-request-'));
  // Server A: loopback allowed, as an operator would for a private libSQL server. It attaches tenant 'x' and writes.
  const a = await serverWith({ attachAllowPrivateNetworks: true });
  const attached = await a.call('POST', '/management/tenant-overrides', {
    tenantId: 'x',
    mode: 'attach',
    attachDbUrl: attachUrl,
    attachDbToken: TOKEN,
  });
  expect(attached.status, JSON.stringify(attached.body.error)).toBe(200);
  const added = await a.call('POST', '/memories/add', {
    content: 'stored in the attached database',
    scope: { tenantId: 'x' },
  });
  expect(added.status, JSON.stringify(added.body.error)).toBe(201);
  await a.indexed();
  await closeAll();
  expect(proxy.connections).toBeGreaterThan(0);
}, 60_000);

afterEach(closeAll);

afterAll(async () => {
  await closeAll();
  await proxy?.close();
  await sqld?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** What reached the libSQL server since `before`: new connections and bytes sent by the client. */
function traffic(before: { connections: number; bytesReceived: number }) {
  return { connections: proxy.connections - before.connections, bytes: proxy.bytesReceived - before.bytesReceived };
}

function snapshot() {
  return { connections: proxy.connections, bytesReceived: proxy.bytesReceived };
}

/**
 * A request for 'x' on a server whose configuration no longer allows the attached address: refused (twice: the
 * failed open is not cached), nothing reaches the libSQL server, and the server's log names the policy's refusal.
 */
async function expectRefusedWithoutConnecting(server: TestServer) {
  const before = snapshot();
  const row = await server.services.registry.find('default', 'x');
  expect(row).toMatchObject({ mode: 'attach', status: 'ready', db_url: attachUrl });
  const warned = vi.spyOn(server.services.logger, 'warn');
  const failed = vi.spyOn(server.services.logger, 'error');
  const response = await listTenant(server);
  const again = await listTenant(server);
  expect(traffic(before)).toEqual({ connections: 0, bytes: 0 });
  expect(response.body.ok, JSON.stringify(response.body)).toBe(false);
  expect(response.body.data).toBeNull();
  expect(again.body.error?.code).toBe(response.body.error?.code);
  const logged = JSON.stringify([...warned.mock.calls, ...failed.mock.calls]);
  expect(logged).toContain('ATTACH_ADDRESS_REFUSED');
  return response;
}

/** What the refusal should answer: the caller's tenant cannot be reached, a 4xx, never a 500 INTERNAL_ERROR. */
function expectClearRefusal(response: TestResponse) {
  expect(response.body.error?.code, JSON.stringify(response.body.error)).not.toBe('INTERNAL_ERROR');
  expect(response.status, JSON.stringify(response.body.error)).toBeGreaterThanOrEqual(400);
  expect(response.status, JSON.stringify(response.body.error)).toBeLessThan(500);
  expect(response.body.error).toMatchObject({ code: 'TENANT_DATABASE_UNREACHABLE', status: 409, retryable: false });
}

describe('request-time connections to an attached database re-check the current attach policy', () => {
  it('positive control: a server that still allows loopback reads the attached tenant, connecting', async () => {
    const before = snapshot();
    const b = await serverWith({ attachAllowPrivateNetworks: true });
    const response = await listTenant(b);
    expect(response.status, JSON.stringify(response.body.error)).toBe(200);
    expect(response.body.data?.memories.map((memory: { content: string }) => memory.content)).toEqual([
      'stored in the attached database',
    ]);
    expect(traffic(before).connections).toBeGreaterThan(0);
    expect(traffic(before).bytes).toBeGreaterThan(0);
  });

  it('positive control: a server that lists 127.0.0.1 in MEMORY_ATTACH_ALLOWED_HOSTS reads it too', async () => {
    const before = snapshot();
    const b = await serverWith({ attachAllowedHosts: ['127.0.0.1'] });
    const response = await listTenant(b);
    expect(response.status, JSON.stringify(response.body.error)).toBe(200);
    expect(response.body.data?.memories).toHaveLength(1);
    expect(traffic(before).connections).toBeGreaterThan(0);
  });

  it('refuses without connecting once private networks are no longer allowed', async () => {
    await expectRefusedWithoutConnecting(await serverWith({}));
  });

  it("refuses without connecting once the attached address is the server's own libSQL server", async () => {
    await expectRefusedWithoutConnecting(await serverWith({ attachAllowPrivateNetworks: true, sqldUrl: attachUrl }));
  });

  // AttachRefusal (attach-fetch.ts) used to reach run-operation.ts unclassified: 500 INTERNAL_ERROR, retryable.
  it('answers the refusal with a clear 4xx code, not 500 INTERNAL_ERROR', async () => {
    expectClearRefusal(await expectRefusedWithoutConnecting(await serverWith({})));
  });

  // The allowlist used to be checked only when attaching (AttachPolicy.checkTarget): B connected and served it.
  it('refuses without connecting when MEMORY_ATTACH_ALLOWED_HOSTS no longer lists the host', async () => {
    // Private networks are still allowed: only the allowlist, which the attached host is not in, refuses it.
    await expectRefusedWithoutConnecting(
      await serverWith({ attachAllowPrivateNetworks: true, attachAllowedHosts: ['db.allowed.test'] }),
    );
  });
});
