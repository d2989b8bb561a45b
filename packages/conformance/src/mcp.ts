import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { HttpClient } from './http.js';

/** The MCP endpoint path (What the service does: MCP JSON-RPC at {base_url}/api/mcp). */
export const MCP_PATH = '/api/mcp';

/** A tool call's outcome: `envelope` is the contract envelope the result carries (structured or as JSON text). */
export interface ToolCallResult {
  isError: boolean;
  envelope: Record<string, unknown> | undefined;
  raw: unknown;
}

/** The envelope of a tool result: `structuredContent` when it is one, else the first text part parsed as JSON. */
export function envelopeOf(result: {
  structuredContent?: unknown;
  content?: unknown;
}): Record<string, unknown> | undefined {
  const structured = result.structuredContent;
  if (structured !== null && typeof structured === 'object' && 'ok' in structured)
    return structured as Record<string, unknown>;
  const parts = Array.isArray(result.content) ? (result.content as { type?: unknown; text?: unknown }[]) : [];
  for (const part of parts) {
    if (part.type !== 'text' || typeof part.text !== 'string') continue;
    try {
      const parsed: unknown = JSON.parse(part.text);
      if (parsed !== null && typeof parsed === 'object' && 'ok' in parsed) return parsed as Record<string, unknown>;
    } catch {
      // Not JSON: a text rendering. Try the next part.
    }
  }
  return undefined;
}

/** An MCP session over streamable HTTP with the run's API key, counting its calls in the HTTP client's counter. */
export class McpSession {
  private constructor(
    private readonly client: Client,
    private readonly http: HttpClient,
  ) {}

  /** Connects (the `initialize` handshake) with the run's API key, or another `Authorization` value. */
  static async connect(http: HttpClient, fetchImplementation?: typeof fetch): Promise<McpSession> {
    const client = new Client({ name: 'memory-service-conformance', version: '0.1.0' });
    const authorization = http.authorization('key');
    const transport = new StreamableHTTPClientTransport(new URL(http.baseUrl + MCP_PATH), {
      requestInit: { headers: authorization === undefined ? {} : { Authorization: authorization } },
      ...(fetchImplementation === undefined ? {} : { fetch: fetchImplementation }),
    });
    http.requestCount += 1;
    await client.connect(transport);
    return new McpSession(client, http);
  }

  serverName(): string | undefined {
    return this.client.getServerVersion()?.name;
  }

  async listTools(): Promise<{ name: string; inputSchema: Record<string, unknown> }[]> {
    this.http.requestCount += 1;
    const { tools } = await this.client.listTools();
    return tools as { name: string; inputSchema: Record<string, unknown> }[];
  }

  async ping(): Promise<void> {
    this.http.requestCount += 1;
    await this.client.ping();
  }

  /** Calls a tool; a JSON-RPC error (unknown tool, refused arguments) is returned as `isError` with no envelope. */
  async callTool(name: string, args: Record<string, unknown>): Promise<ToolCallResult> {
    this.http.requestCount += 1;
    try {
      const result = await this.client.callTool({ name, arguments: args });
      return { isError: result.isError === true, envelope: envelopeOf(result), raw: result };
    } catch (error) {
      return { isError: true, envelope: undefined, raw: error instanceof Error ? error.message : error };
    }
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
  }
}
