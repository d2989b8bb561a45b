import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/** What these tests need from `@memory-service/server`: `startServer(options)`. */
export interface RunningServer {
  url: string;
  port: number;
  close: () => Promise<void> | void;
}
type StartServer = (options: Record<string, unknown>) => Promise<RunningServer> | RunningServer;

// Loaded by a computed name so the client type-checks without the server package.
const serverPackage = '@memory-service/server';

/** The server's `startServer`, or undefined where the server package is not built (tests that need it skip). */
export const startServer: StartServer | undefined = await import(serverPackage).then(
  (module: { startServer?: unknown }) =>
    typeof module.startServer === 'function' ? (module.startServer as StartServer) : undefined,
  () => undefined,
);

/**
 * Starts a real server on 127.0.0.1 (a free port, a data dir of its own, silent logs) for the describe block that
 * calls this, and stops it after; `options` adds server options. The returned object's `server` is set once it runs.
 */
export function useRealServer(apiKey: string, options: Record<string, unknown> = {}): { server: RunningServer } {
  const state = {} as { server: RunningServer };
  let dataDir: string | undefined;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'memory-client-server-'));
    state.server = await startServer!({
      host: '127.0.0.1',
      port: 0,
      dataDir,
      bootstrapApiKey: apiKey,
      logLevel: 'silent',
      ...options,
    });
  });
  afterAll(async () => {
    await state.server?.close();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });
  return state;
}
