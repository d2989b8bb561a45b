import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake server answers every request with. */
export type FakeAnswer = { status: number } | 'endless' | 'silent';

/** A fake libSQL HTTP server on 127.0.0.1 that counts what reaches it. */
export interface FakeServer {
  port: number;
  /** TCP connections accepted so far. */
  connections: number;
  /** Body bytes written so far (all responses). */
  bytesWritten: number;
  /** Resolves once every endless response has ended (cut off by the client, or at its own bound). */
  endlessDone(): Promise<void>;
  close(): Promise<void>;
}

/** An endless response stops by itself past this many bytes or this long, whatever the client does. */
const ENDLESS_BYTES_BOUND = 256 * 1024 * 1024;
const ENDLESS_TIME_BOUND_MS = 20_000;
const CHUNK = Buffer.alloc(64 * 1024, 0x20);

/**
 * Starts the fake server: a status with a small JSON body, `endless` (a 200 body of spaces streamed as fast as the
 * client reads it), or `silent` (no answer at all).
 */
export async function startFakeServer(answer: FakeAnswer): Promise<FakeServer> {
  const endless: Promise<void>[] = [];
  const state = { connections: 0, bytesWritten: 0 };
  const stream = (response: ServerResponse) =>
    new Promise<void>((resolve) => {
      const started = Date.now();
      response.writeHead(200, { 'content-type': 'application/json' });
      let sent = 0;
      const finish = () => {
        response.destroy();
        resolve();
      };
      response.once('close', finish);
      const pump = () => {
        while (sent < ENDLESS_BYTES_BOUND && Date.now() - started < ENDLESS_TIME_BOUND_MS) {
          if (response.destroyed) return finish();
          sent += CHUNK.length;
          state.bytesWritten += CHUNK.length;
          if (!response.write(CHUNK)) return void response.once('drain', pump);
        }
        finish();
      };
      pump();
    });
  const server = createServer((request, response) => {
    request.resume();
    if (answer === 'silent') return; // never answers; close() ends it
    if (answer === 'endless') {
      endless.push(stream(response));
      return;
    }
    const body = JSON.stringify({ message: 'fake' });
    state.bytesWritten += body.length;
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(body);
  });
  server.on('connection', () => {
    state.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return state.connections;
    },
    get bytesWritten() {
      return state.bytesWritten;
    },
    endlessDone: async () => {
      await Promise.all(endless);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
