import type { Logger } from '../logger.js';
import { currentObservation, type RequestObservation } from '../observability/request-observation.js';

/**
 * One request, or one MCP tool call, as it is logged. Only these fields reach the line: no header, body, token,
 * key or SQL can, since nothing free-form is passed (the path is the URL path, without its query).
 */
export interface RequestLogEntry {
  requestId: string;
  method: string;
  path: string;
  /** The operation id (`memories.add`, `mcp`), or null when no route matched. */
  operation: string | null;
  /** The MCP tool, for a tool call. */
  tool?: string;
  status: number;
  /** `performance.now()` when the work began. */
  started: number;
}

const MAX_LOGGED_PATH = 200;

/**
 * Writes the one log line of an HTTP request (`request`) or an MCP tool call (`mcp tool call`), and reports it to the
 * request's observation (metrics and trace: `operator/observability.ts`), by default the one of the HTTP request it
 * runs in.
 */
export function logRequest(
  logger: Logger,
  entry: RequestLogEntry,
  observation: RequestObservation | undefined = currentObservation(),
): void {
  const { started, tool, path, ...rest } = entry;
  // A scanner's made-up path (up to the URL limit) must not blow up the log: the route part is what a reader needs.
  const fields = { ...rest, path: path.length <= MAX_LOGGED_PATH ? path : `${path.slice(0, MAX_LOGGED_PATH)}…` };
  const elapsedMs = performance.now() - started;
  const durationMs = Math.round(elapsedMs * 100) / 100;
  if (tool === undefined) logger.info('request', { ...fields, durationMs });
  else logger.info('mcp tool call', { ...fields, tool, durationMs });
  observation?.record({
    operation: entry.operation,
    method: entry.method,
    status: entry.status,
    started,
    durationMs: elapsedMs,
    ...(tool === undefined ? {} : { tool }),
  });
}
