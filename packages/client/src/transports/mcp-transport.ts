import {
  MCP_PATH,
  mcpArgumentsFromInput,
  type OperationData,
  type OperationId,
  type OperationRequest,
  operations,
} from '@memory-service/contract';
import type { Client as McpClient } from '@modelcontextprotocol/client';
import { anySignal, startDeadline, untilAborted } from '../abort.js';
import {
  CLIENT_ERROR_CODES,
  ConnectionError,
  MemoryApiError,
  RequestAbortedError,
  TimeoutError,
  UnsupportedOperationError,
} from '../errors.js';
import type { CallSettings } from '../request-options.js';
import { withRetries } from '../retry.js';
import { errorFromStatus, isEnvelope, type ResponseOrigin, unwrapEnvelope } from './envelope.js';
import { errorFromMcpFailure } from './mcp-errors.js';
import { createMcpFetch } from './mcp-fetch.js';
import type { Transport, TransportSettings } from './transport.js';

const CLIENT_INFO = { name: '@memory-service/client', version: '0.1.0' };

/** The MCP tool that carries an operation (its first: the one taking the whole input), or undefined when none does. */
export function mcpToolFor(operationId: OperationId): string | undefined {
  return operations[operationId].mcp[0]?.name;
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
  function connected(timeoutMs: number): Promise<McpClient> {
    if (connection === undefined) {
      const attempt = connect({}, timeoutMs);
      connection = attempt;
      attempt.catch(() => {
        if (connection === attempt) connection = undefined;
      });
    }
    return connection;
  }

  async function connect(callHeaders: Record<string, string>, timeoutMs: number): Promise<McpClient> {
    const sdk = await loadMcpClientModule();
    const client = new sdk.Client(CLIENT_INFO);
    const transport = new sdk.StreamableHTTPClientTransport(endpoint, { fetch: createMcpFetch(settings, callHeaders) });
    await client.connect(transport, { timeout: timeoutMs });
    return client;
  }

  async function attempt<Id extends OperationId>(
    operationId: Id,
    input: OperationRequest<Id>,
    tool: string,
    call: CallSettings,
  ): Promise<OperationData<Id>> {
    const origin: ResponseOrigin = { operationId, route: `MCP tool ${tool} at ${MCP_PATH}`, status: null };
    // A call with its own headers gets its own session, so they never leak into other calls.
    const ownSession = Object.keys(call.headers).length > 0;
    const session = ownSession ? connect(call.headers, call.timeoutMs) : connected(call.timeoutMs);
    let result: Awaited<ReturnType<McpClient['callTool']>>;
    try {
      const client = await untilAborted(session, call.signal);
      result = await client.callTool(
        { name: tool, arguments: mcpArgumentsFromInput(input as Record<string, unknown>) },
        { timeout: call.timeoutMs, ...(call.signal === undefined ? {} : { signal: call.signal }) },
      );
    } catch (error) {
      if (call.signal?.aborted) throw error;
      const mapped = errorFromMcpFailure(error, origin, call.timeoutMs);
      // A lost connection is not reused: the next attempt opens a new one.
      if (ConnectionError.isInstance(mapped) && !ownSession) await close().catch(() => {});
      throw mapped;
    } finally {
      // Closed even when an abort left it connecting.
      if (ownSession) void session.then((client) => client.close()).catch(() => {});
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

  async function send<Id extends OperationId>(
    operationId: Id,
    input: OperationRequest<Id>,
    call: CallSettings,
  ): Promise<OperationData<Id>> {
    const tool = mcpToolFor(operationId);
    if (tool === undefined) {
      throw new UnsupportedOperationError(
        `${operationId} is not available over the mcp transport (the MCP endpoint has no tool for it); use transport 'sdk_http'`,
        { operationId, endpoint: MCP_PATH },
      );
    }
    const route = `MCP tool ${tool} at ${MCP_PATH}`;
    // The total bounds the whole call: each attempt gets what is left of it, and its end aborts the one in flight.
    const deadline = startDeadline(call.totalTimeoutMs);
    const totalSignal = call.totalTimeoutMs === false ? undefined : AbortSignal.timeout(call.totalTimeoutMs);
    const signal = anySignal([call.signal, totalSignal]);
    const attemptSettings = (): CallSettings => ({
      ...call,
      signal,
      timeoutMs: Math.max(1, Math.min(call.timeoutMs, deadline.remainingMs())),
    });
    try {
      return await withRetries(
        operationId,
        () => attempt(operationId, input, tool, attemptSettings()),
        settings.retry,
        {
          maxRetries: call.maxRetries,
          signal,
          deadline,
        },
      );
    } catch (error) {
      if (call.signal?.aborted) {
        throw new RequestAbortedError(`The call was aborted (${operationId}: ${route})`, {
          operationId,
          endpoint: route,
          cause: call.signal.reason,
        });
      }
      if (totalSignal?.aborted || (TimeoutError.isInstance(error) && deadline.passed())) {
        throw new TimeoutError(
          `No response within the call's total of ${call.totalTimeoutMs} ms (${operationId}: ${route})`,
          {
            operationId,
            endpoint: route,
            cause: error,
          },
        );
      }
      throw error;
    }
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
