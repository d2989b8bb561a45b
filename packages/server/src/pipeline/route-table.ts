import { API_PREFIX, MCP_PATH, operationList, operations } from '@memory-service/contract';
import { TrieRouter } from 'hono/router/trie-router';

/** The route `/api/mcp/key` stands in for (`mcp/legacy-key-route.ts` answers the alias). */
export const LEGACY_KEY_SUCCESSOR = `${API_PREFIX}${operations['management.keys.get'].path}`;

/** One route the server answers: a method, a path (`{name}` is one segment), and the operation it runs. */
export interface RouteEntry {
  method: string;
  path: string;
  operation: string;
}

/** What the server knows about a path: the methods it allows there and the operation a method runs. */
export interface RouteTable {
  /** The methods routes define for a path, in table order; empty when no route has that path. */
  methodsFor(path: string): string[];
  /** The operation a method and path run (HEAD runs the GET route); undefined when none does. */
  operationFor(method: string, path: string): string | undefined;
}

/** A contract path in Hono's syntax: `/sessions/{sessionId}/snapshot` -> `/sessions/:sessionId/snapshot`. */
export function toHonoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** A route table over `entries`, matched with Hono's own router so it agrees with the app's routing. */
export function createRouteTable(entries: readonly RouteEntry[]): RouteTable {
  const router = new TrieRouter<RouteEntry>();
  for (const entry of entries) router.add('ALL', toHonoPath(entry.path), entry);
  // A path a route names word for word is that route's, never a value of another route's parameter: GET
  // /memories/add is the add route asked with the wrong method (405), not a read of memory "add".
  const matching = (path: string) => {
    const found = router.match('ALL', path)[0].map(([entry]) => entry);
    const exact = found.filter((entry) => !entry.path.includes('{'));
    return exact.length > 0 ? exact : found;
  };
  return {
    methodsFor: (path) => [...new Set(matching(path).map((entry) => entry.method))],
    operationFor: (method, path) => {
      const wanted = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
      return matching(path).find((entry) => entry.method === wanted)?.operation;
    },
  };
}

/**
 * Every route of this server: the operations table under `API_PREFIX`, the OpenAPI document, MCP (POST only:
 * stateless, no SSE stream to GET and no session to DELETE) and `/api/mcp/key`, the alias of `/management/keys`.
 */
export function serverRoutes(): RouteEntry[] {
  const operationRoutes = operationList.map((operation) => ({
    method: operation.method,
    path: `${API_PREFIX}${operation.path}`,
    operation: operation.id,
  }));
  return [
    ...operationRoutes,
    { method: 'GET', path: `${API_PREFIX}/openapi.json`, operation: 'openapi' },
    { method: 'POST', path: MCP_PATH, operation: 'mcp' },
    ...operationRoutes
      .filter((route) => route.path === LEGACY_KEY_SUCCESSOR)
      .map((route) => ({ ...route, path: `${MCP_PATH}/key` })),
  ];
}
