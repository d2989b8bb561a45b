import { randomUUID } from 'node:crypto';
import {
  buildMeta,
  CONTRACT_VERSION,
  type Envelope,
  errorEnvelope,
  inputFromMcpArguments,
  MCP_PATH,
  type McpToolDefinition,
  makeApiError,
  mcpTools,
  type OperationDefinition,
  operations,
  SERVICE_NAME,
} from '@memory-service/contract';
import { type CallToolResult, McpServer } from '@modelcontextprotocol/server';
import type { HandlerTable } from '../pipeline/handler-types.js';
import { logRequest } from '../pipeline/log-request.js';
import { runOperation } from '../pipeline/run-operation.js';
import type { Services } from '../services.js';
import type { ResponseBudget } from './response-budget.js';
import { type ToolArguments, toolAnnotations, toolInputSchema, toolOutputSchema } from './tool-schemas.js';

/** What a tool call needs from the HTTP request that carried it. */
export interface McpCallOrigin {
  /** The request's Authorization header, checked again by the pipeline for every call. */
  authorization: string | undefined;
  /** The HTTP request's id: each tool call runs, answers and is logged under it. */
  httpRequestId: string | null;
  /** What the request's tool calls may hold together (one budget per HTTP request, shared by a batch's calls). */
  budget: ResponseBudget;
}

/** The MCP tools this server serves: every tool of the operations table, with its operation. */
export function servedTools(): Array<{ tool: McpToolDefinition; operation: OperationDefinition }> {
  return mcpTools.map((tool) => ({ tool, operation: operations[tool.operationId] as OperationDefinition }));
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
  // The HTTP request's id, so the tool's envelope, the response's X-Request-Id and the log lines agree.
  const requestId = origin.httpRequestId ?? randomUUID();
  const endpoint = `${MCP_PATH}#${tool.name}`;
  const started = performance.now();
  const { budget } = origin;
  const overBudget = (ran: boolean) =>
    toolResult(
      errorEnvelope(
        makeApiError(
          'MCP_RESPONSE_BUDGET_EXCEEDED',
          `The answers of this MCP request reached ${budget.limitBytes} bytes: ${tool.name} was ${
            ran ? 'run but its answer left out' : 'not run'
          }. Send it in a request of its own or with fewer calls.`,
          { limitBytes: budget.limitBytes },
        ),
        buildMeta(endpoint, requestId, services.now()),
      ),
    );
  const result = await budget.run(async () => {
    if (budget.spent) return null;
    const input = { ...inputFromMcpArguments(args, operation, tool), ...(tool.fixedInput ?? {}) };
    return runOperation(services, handlers, {
      operation,
      readInput: async () => input,
      authorization: origin.authorization,
      // The client address was counted once for the whole HTTP request, before authentication.
      clientIp: null,
      endpoint,
      requestId,
    });
  });
  logRequest(services.logger, {
    requestId,
    method: 'POST',
    path: MCP_PATH,
    operation: operation.id,
    tool: tool.name,
    status: result?.status ?? 413,
    started,
  });
  if (result === null) return overBudget(false);
  const answer = toolResult(result.envelope);
  // Counted as sent: the text, and the structured content (no larger than the text, which is indented JSON).
  const text = (answer.content[0] as { text: string }).text;
  if (!budget.take(2 * Buffer.byteLength(text), !operation.readOnly)) return overBudget(true);
  return answer;
}

/**
 * Builds the MCP server for one HTTP request (stateless serving): one tool per MCP tool of the contract's
 * operations table, each running its operation through the same pipeline as the HTTP route.
 */
export function createMcpServer(services: Services, handlers: HandlerTable, origin: McpCallOrigin): McpServer {
  const server = new McpServer({ name: SERVICE_NAME, version: CONTRACT_VERSION });
  for (const served of servedTools()) {
    server.registerTool(
      served.tool.name,
      {
        description: served.tool.description,
        inputSchema: toolInputSchema(served.tool, served.operation),
        outputSchema: toolOutputSchema(served.operation),
        annotations: toolAnnotations(served.operation),
      },
      (args) => callTool(services, handlers, origin, served, args),
    );
  }
  return server;
}
