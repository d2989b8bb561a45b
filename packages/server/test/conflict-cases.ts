import type { OperationData } from '@memory-service/contract';
import { afterAll, beforeAll } from 'vitest';
import { createTestServer, type TestServer } from './harness.js';

export type Context = OperationData<'context.get'>;

/** What a conflict test file drives: one server, a fresh user per case, adds and context/get through HTTP. */
export interface ConflictCases {
  /** The file's server, set by `beforeAll`. */
  readonly server: TestServer;
  /** A fresh user per case, so cases never see each other. */
  scope: () => { userId: string };
  /** memories/add in the user's scope, said at `occurredAt` when given; the new memory's id. */
  add: (content: string, user: { userId: string }, occurredAt?: string) => Promise<string>;
  /** context/get once the indexer is done (limit 10; hybrid unless another strategy is given). */
  context: (query: string, user: { userId: string }, strategy?: string) => Promise<Context>;
  /** The served memories' ids, in order. */
  ids: (bundle: Context) => string[];
  /** The conflict pairs served, each [older, newer]. */
  pairs: (bundle: Context) => string[][];
}

/** Starts one test server for the file (closed after it) and the helpers its conflict cases share. */
export function useConflictCases(userPrefix: string): ConflictCases {
  let server: TestServer | undefined;
  let counter = 0;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  const running = (): TestServer => {
    if (server === undefined) throw new Error('the test server starts in beforeAll');
    return server;
  };
  return {
    get server() {
      return running();
    },
    scope: () => {
      counter += 1;
      return { userId: `${userPrefix}-${counter}` };
    },
    add: async (content, user, occurredAt) =>
      (
        await running().post<{ id: string }>('/memories/add', {
          content,
          scope: user,
          ...(occurredAt === undefined ? {} : { occurredAt }),
        })
      ).id,
    context: async (query, user, strategy = 'hybrid') => {
      await running().indexed();
      return running().post<Context>('/context/get', { query, scope: user, strategy, limit: 10 });
    },
    ids: (bundle) => bundle.memories.map((memory) => memory.id),
    pairs: (bundle) => (bundle.conflicts ?? []).map((pair) => [pair.memoryAId, pair.memoryBId]),
  };
}
