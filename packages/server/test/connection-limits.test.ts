import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type ServerConfig } from '../src/config.js';
import { type RunningServer, startServer } from '../src/server.js';
import { TEST_EMBEDDING_MODEL, TEST_KEY } from './harness.js';

/**
 * Idle sockets are closed and their number capped: without that, sockets that never send a request hold a descriptor
 * for ~90 s, and 1,100 of them against a 1,024-descriptor server leave none for a new tenant's database. Real servers
 * on 127.0.0.1 port 0; every wait is for an event, bounded generously, never a measured speed.
 */

/** Waits this long at most for a socket to be closed by the server (a bound, not an expectation of speed). */
const CLOSE_BOUND_MS = 8_000;

const directories: string[] = [];
const sockets: Socket[] = [];

async function start(limits: Partial<ServerConfig>): Promise<RunningServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-connections-'));
  directories.push(dataDir);
  return startServer(
    {
      host: '127.0.0.1',
      port: 0,
      dataDir,
      bootstrapApiKey: TEST_KEY,
      embeddingModel: TEST_EMBEDDING_MODEL,
      logLevel: 'silent',
      ...limits,
    },
    { environment: {} },
  );
}

/** A raw TCP connection to the server, open once connected. */
async function open(server: RunningServer): Promise<Socket> {
  const socket = connect(server.port, '127.0.0.1');
  sockets.push(socket);
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return socket;
}

/** Resolves with what the server sent once it closed the socket; rejects past `boundMs`. */
function closedByServer(socket: Socket, boundMs = CLOSE_BOUND_MS): Promise<string> {
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  return new Promise((resolve, reject) => {
    if (socket.destroyed || socket.readableEnded) return resolve(received);
    const timer = setTimeout(() => reject(new Error(`still open after ${boundMs} ms`)), boundMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
  });
}

/** Sends `GET /health` on a kept-alive socket and resolves with the response's status line. */
function health(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    const onData = (chunk: Buffer) => {
      received += chunk.toString('latin1');
      // /health's body is a small JSON object: the response is complete once its closing brace arrived.
      if (received.includes('\r\n\r\n') && received.trimEnd().endsWith('}')) {
        socket.off('data', onData);
        resolve(received.split('\r\n')[0] ?? '');
      }
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error('closed before the response')));
    socket.write('GET /api/sdk/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
  });
}

/** Opens connections until one is served `/health` (at most `attempts`; a refused one closes at once). */
async function servedWithin(server: RunningServer, attempts: number): Promise<string> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await health(await open(server));
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

describe('idle connections', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await start({ headersTimeoutMs: 300, keepAliveTimeoutMs: 200 });
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers 408 and closes a socket that sends nothing once the header time is up', async () => {
    const silent = await open(server);
    const received = await closedByServer(silent);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a socket that trickles its headers (slowloris) the same way', async () => {
    const slow = await open(server);
    slow.write('GET /api/sdk/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const received = await closedByServer(slow);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a kept-alive socket once it has waited MEMORY_KEEP_ALIVE_TIMEOUT_MS for its next request', async () => {
    const kept = await open(server);
    expect(await health(kept)).toBe('HTTP/1.1 200 OK');
    // 200 ms here (Node adds a second); its own default would keep the socket 6 s, past this bound.
    await closedByServer(kept, 4_000);
  });
});

describe('the connection cap', () => {
  let server: RunningServer;
  beforeAll(async () => {
    // A long header time: the idle sockets stay open for the whole test, the cap alone turns the next one away.
    server = await start({ maxConnections: 3, headersTimeoutMs: 60_000 });
  });
  afterAll(async () => {
    await server.close();
  });

  it('closes connections past MEMORY_MAX_CONNECTIONS at once, while the open ones are still served', async () => {
    const kept = await open(server);
    expect(await health(kept)).toBe('HTTP/1.1 200 OK');
    const idle = [await open(server), await open(server)];
    // The kernel's accept queue is in order: by the time this one is accepted, the three before it are.
    const refused = await open(server);
    expect(await closedByServer(refused)).toBe('');
    expect(await health(kept)).toBe('HTTP/1.1 200 OK');
    // The cap counts open connections, not connections ever made: once the server has seen one close (it learns it
    // a moment after this side does, hence the bounded retries), a new one is served.
    (idle[0] as Socket).destroy();
    expect(await servedWithin(server, 20)).toBe('HTTP/1.1 200 OK');
  });
});

describe('the defaults', () => {
  it('caps 512 connections, gives 10 s for the headers and keeps an idle connection 5 s; 0 lifts the cap', () => {
    expect(loadConfig({})).toMatchObject({ maxConnections: 512, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 5_000 });
    expect(
      loadConfig({ MEMORY_MAX_CONNECTIONS: '0', MEMORY_HEADERS_TIMEOUT_MS: '2000', MEMORY_KEEP_ALIVE_TIMEOUT_MS: '0' }),
    ).toMatchObject({ maxConnections: 0, headersTimeoutMs: 2_000, keepAliveTimeoutMs: 1 });
  });
});
