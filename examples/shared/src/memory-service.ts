import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer } from '@memory-service/server';

/** Where the example's memory service is, and how to stop it. */
export interface MemoryService {
  baseUrl: string;
  apiKey: string;
  close(): Promise<void>;
}

function environment(name: string): string | undefined {
  const value = process.env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The memory service to use: `MEMORY_BASE_URL` with `MEMORY_API_KEY` when set; otherwise a reference server started
 * here on a free port, over a temporary data folder, with a freshly generated key (all removed on close).
 */
export async function connectMemoryService(): Promise<MemoryService> {
  const baseUrl = environment('MEMORY_BASE_URL');
  if (baseUrl !== undefined) {
    const apiKey = environment('MEMORY_API_KEY');
    if (apiKey === undefined) throw new Error('MEMORY_BASE_URL is set, so set MEMORY_API_KEY too');
    console.log(`[memory] using the memory service at ${baseUrl}`);
    return { baseUrl, apiKey, close: async () => undefined };
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'memory-example-'));
  const apiKey = `mem_${randomBytes(32).toString('hex')}`;
  const server = await startServer({ host: '127.0.0.1', port: 0, dataDir, bootstrapApiKey: apiKey, logLevel: 'warn' });
  console.log(`[memory] MEMORY_BASE_URL is unset: started a reference server at ${server.url}`);
  return {
    baseUrl: server.url,
    apiKey,
    close: async () => {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
