import { McpHttpFailure, McpNetworkFailure } from './mcp-errors.js';
import type { FetchFunction, TransportSettings } from './transport.js';

/**
 * The fetch of an MCP session: every MCP request goes through it. It adds the client's headers, the key and the
 * call's own headers (in that order, later ones win), and turns error answers into failures the transport can type.
 */
export function createMcpFetch(settings: TransportSettings, callHeaders: Record<string, string>): FetchFunction {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    for (const [name, value] of Object.entries(settings.headers)) if (!headers.has(name)) headers.set(name, value);
    if (settings.apiKey !== undefined) headers.set('authorization', `Bearer ${settings.apiKey}`);
    for (const [name, value] of Object.entries(callHeaders)) headers.set(name, value);
    let response: Response;
    try {
      response = await (settings.fetch ?? globalThis.fetch)(input, { ...init, headers });
    } catch (error) {
      if (error instanceof Error && error.name === 'AbortError') throw error;
      throw new McpNetworkFailure(error);
    }
    // 405 is how a stateless server declines the optional SSE stream; the SDK handles it.
    if (response.ok || response.status === 405) return response;
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Left as text; classified by status.
    }
    throw new McpHttpFailure(
      response.status,
      body,
      response.headers.get('retry-after'),
      response.headers.get('x-request-id'),
    );
  };
}
