import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, startServer } from '@memory-service/server';

/** The key and admin token the reference servers of these tests accept. */
export const API_KEY = `mem_${'c0'.repeat(32)}`;
export const ADMIN_TOKEN = 'conformance-admin-token-0123456789';

/** A reference server (packages/server/dist) on 127.0.0.1, a free port and a data dir of its own. */
export interface TestServer {
  server: RunningServer;
  stop: () => Promise<void>;
}

/** Starts the built reference server; `environment` adds variables (feature flags) to the test's own. */
export async function startReferenceServer(environment: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'memory-conformance-'));
  const server = await startServer(
    { host: '127.0.0.1', port: 0, dataDir, bootstrapApiKey: API_KEY, adminToken: ADMIN_TOKEN, logLevel: 'silent' },
    { environment: { ...process.env, ...environment } },
  );
  return {
    server,
    stop: async () => {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
