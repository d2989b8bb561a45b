import {
  MCP_PATH,
  mcpArgumentsFromInput,
  type OperationData,
  type OperationId,
  type OperationRequest,
  operations,
} from '@memory-service/contract';
import type { Client as McpClient } from '@modelcontextprotocol/client';
import { CLIENT_ERROR_CODES, ConnectionError, MemoryApiError, UnsupportedOperationError } from '../errors.js';
import { errorFromStatus, isEnvelope, type ResponseOrigin, unwrapEnvelope } from './envelope.js';
import { errorFromMcpFailure, McpHttpFailure, McpNetworkFailure } from './mcp-errors.js';
import type { FetchFunction, Transport, TransportSettings } from './transport.js';

const CLIENT_INFO = { name: '@memory-service/client', version: '0.1.0' };

/** The MCP tool that carries an operation, or undefined when the MCP endpoint does not expose it. */
export function mcpToolFor(operationId: OperationId): string | undefined {
  const operation: { mcpTool?: string } = operations[operationId];
  return operation.mcpTool;
}

async function loadMcpClientModule(): Promise<typeof import('@modelcontextprotocol/client')> {
  try {
    return await import('@modelcontextprotocol/client');
  } catch (error) {
    throw new MemoryApiError({
      code: CLIENT_ERROR_CODES.mcpClientMissing,
      message:
        'The mcp transport needs the optional peer dependency @modelcontextprotocol/client (npm i @modelcontextprotocol/client)',
      status: null,
      type: 'unknown_error',
      retryable: false,
      cause: error,
    });
  }
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .map((block: unknown) => (typeof block === 'object' && block !== null && 'text' in block ? String(block.text) : ''))
    .join('\n');
}

/** The `mcp` transport: JSON-RPC `tools/call` through the official MCP client, loaded on first use. */
export function createMcpTransport(settings: TransportSettings): Transport {
  const endpoint = new URL(`${settings.rootUrl}${MCP_PATH}`);
  let connection: Promise<McpClient> | undefined;

  // One MCP session per memory client; a failed connect is forgotten so the next attempt connects again.
  function connected(): Promise<McpClient> {
    if (connection === undefined) {
      const attempt = connect();
      connection = attempt;
      attempt.catch(() => {
        if (connection === attempt) connection = undefined;
      });
    }
    return connection;
  }

  // Every MCP request goes through here: adds the key and headers, and turns error answers into typed failures.
  const authorizedFetch: FetchFunction = async (input, init) => {
    const headers = new Headers(init?.headers);
    for (const [name, value] of Object.entries(settings.headers)) if (!headers.has(name)) headers.set(name, value);
    if (settings.apiKey !== undefined) headers.set('authorization', `Bearer ${settings.apiKey}`);
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

  async function connect(): Promise<McpClient> {
    const sdk = await loadMcpClientModule();
    const client = new sdk.Client(CLIENT_INFO);
    const transport = new sdk.StreamableHTTPClientTransport(endpoint, { fetch: authorizedFetch });
    await client.connect(transport, { timeout: settings.timeoutMs });
    return client;
  }

  async function send<Id extends OperationId>(
    operationId: Id,
    input: OperationRequest<Id>,
  ): Promise<OperationData<Id>> {
    const tool = mcpToolFor(operationId);
    if (tool === undefined) {
      throw new UnsupportedOperationError(
        `${operationId} is not available over the mcp transport (the MCP endpoint has no tool for it); use transport 'sdk_http'`,
        { operationId, endpoint: MCP_PATH },
      );
    }
    const origin: ResponseOrigin = { operationId, route: `MCP tool ${tool} at ${MCP_PATH}`, status: null };
    let result: Awaited<ReturnType<McpClient['callTool']>>;
    try {
      const client = await connected();
      result = await client.callTool(
        { name: tool, arguments: mcpArgumentsFromInput(input as Record<string, unknown>) },
        { timeout: settings.timeoutMs },
      );
    } catch (error) {
      const mapped = errorFromMcpFailure(error, origin, settings.timeoutMs);
      // A lost connection is not reused: the next attempt opens a new one.
      if (ConnectionError.isInstance(mapped)) await close().catch(() => {});
      throw mapped;
    }
    if (isEnvelope(result.structuredContent))
      return unwrapEnvelope(result.structuredContent, origin) as OperationData<Id>;
    const text = textOf(result.content);
    if (result.isError) {
      throw new MemoryApiError({
        code: CLIENT_ERROR_CODES.mcpToolError,
        message: `${text || 'The tool reported an error'} (${operationId}: ${origin.route})`,
        status: null,
        type: 'unknown_error',
        retryable: false,
        endpoint: origin.route,
        operationId,
      });
    }
    throw errorFromStatus(origin, text);
  }

  async function close(): Promise<void> {
    const current = connection;
    connection = undefined;
    if (current === undefined) return;
    const client = await current.catch(() => undefined);
    await client?.close();
  }

  return Object.assign(send, { transportName: 'mcp' as const, close });
}
