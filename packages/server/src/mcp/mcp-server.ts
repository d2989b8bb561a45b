import { randomUUID } from 'node:crypto';
import {
  CONTRACT_VERSION,
  type Envelope,
  inputFromMcpArguments,
  MCP_PATH,
  type McpToolDefinition,
  mcpTools,
  type OperationDefinition,
  operations,
  SERVICE_NAME,
} from '@memory-service/contract';
import { type CallToolResult, McpServer } from '@modelcontextprotocol/server';
import type { HandlerTable } from '../handlers/types.js';
import { runOperation } from '../pipeline/run-operation.js';
import type { Services } from '../services.js';
import { type ToolArguments, toolAnnotations, toolInputSchema, toolOutputSchema } from './tool-schemas.js';

/** What a tool call needs from the HTTP request that carried it. */
export interface McpCallOrigin {
  /** The request's Authorization header, checked again by the pipeline for every call. */
  authorization: string | undefined;
  /** The HTTP request's id, logged beside each call's own request id. */
  httpRequestId: string | null;
}

/** The MCP tools this server serves: those of DESIGN 7 whose operation has a handler, with their operation. */
export function servedTools(
  handlers: HandlerTable,
): Array<{ tool: McpToolDefinition; operation: OperationDefinition }> {
  return mcpTools
    .filter((tool) => handlers[tool.operationId] !== undefined)
    .map((tool) => ({ tool, operation: operations[tool.operationId] as OperationDefinition }));
}

/** A readable rendering of an envelope for clients that only read `content`: the data as JSON, or `CODE: message`. */
export function renderEnvelope(envelope: Envelope<unknown>): string {
  if (envelope.ok) return JSON.stringify(envelope.data, null, 2) ?? 'null';
  return `${envelope.error.code}: ${envelope.error.message}`;
}

/** Wraps an envelope as a tool result: the envelope as `structuredContent`, plus its text rendering. */
export function toolResult(envelope: Envelope<unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text: renderEnvelope(envelope) }],
    structuredContent: envelope as unknown as Record<string, unknown>,
    isError: !envelope.ok,
  };
}

async function callTool(
  services: Services,
  handlers: HandlerTable,
  origin: McpCallOrigin,
  served: { tool: McpToolDefinition; operation: OperationDefinition },
  args: ToolArguments,
): Promise<CallToolResult> {
  const { tool, operation } = served;
  const requestId = randomUUID();
  const started = performance.now();
  const input = { ...inputFromMcpArguments(args, operation), ...(tool.fixedInput ?? {}) };
  const result = await runOperation(services, handlers, {
    operation,
    readInput: async () => input,
    authorization: origin.authorization,
    // The client address was counted once for the whole HTTP request, before authentication.
    clientIp: null,
    endpoint: `${MCP_PATH}#${tool.name}`,
    requestId,
  });
  services.logger.info('mcp tool call', {
    requestId,
    httpRequestId: origin.httpRequestId,
    tool: tool.name,
    operation: operation.id,
    status: result.status,
    durationMs: Math.round((performance.now() - started) * 100) / 100,
  });
  return toolResult(result.envelope);
}

/**
 * Builds the MCP server for one HTTP request (stateless serving): one tool per served entry of the contract's
 * MCP tool list, each running its operation through the same pipeline as the HTTP route.
 */
export function createMcpServer(services: Services, handlers: HandlerTable, origin: McpCallOrigin): McpServer {
  const server = new McpServer({ name: SERVICE_NAME, version: CONTRACT_VERSION });
  for (const served of servedTools(handlers)) {
    server.registerTool(
      served.tool.name,
      {
        description: served.tool.description,
        inputSchema: toolInputSchema(served.tool, served.operation),
        outputSchema: toolOutputSchema,
        annotations: toolAnnotations(served.tool),
      },
      (args) => callTool(services, handlers, origin, served, args),
    );
  }
  return server;
}
