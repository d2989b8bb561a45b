import { type OperationDefinition, operations } from '@memory-service/contract';
import type { HandlerTable } from '../pipeline/handler-types.js';
import { readOperationInput } from '../pipeline/read-input.js';
import { LEGACY_KEY_SUCCESSOR } from '../pipeline/route-table.js';
import { runOperation } from '../pipeline/run-operation.js';
import type { Services } from '../services.js';

const KEY_OPERATIONS: Readonly<Record<string, OperationDefinition>> = {
  GET: operations['management.keys.get'],
  POST: operations['management.keys.post'],
  DELETE: operations['management.keys.delete'],
};

/** The HTTP methods the legacy alias answers, as the management route does. */
export const LEGACY_KEY_METHODS = Object.keys(KEY_OPERATIONS);

/** One request to the legacy alias. */
export interface LegacyKeyRequest {
  request: Request;
  path: string;
  requestId: string;
  clientIp: string | null;
}

/**
 * Answers `/api/mcp/key` (the contract's legacy alias of `/management/keys`) exactly as the management route
 * would, through the same operations and pipeline, and marks the answer deprecated with a link to the successor.
 */
export async function serveLegacyKeyRoute(
  services: Services,
  handlers: HandlerTable,
  call: LegacyKeyRequest,
): Promise<Response> {
  const operation = KEY_OPERATIONS[call.request.method.toUpperCase()];
  if (operation === undefined) throw new Error(`the legacy key route does not serve ${call.request.method}`);
  const result = await runOperation(services, handlers, {
    operation,
    readInput: () => readOperationInput(operation, call.request, {}),
    authorization: call.request.headers.get('authorization'),
    clientIp: call.clientIp,
    endpoint: call.path,
    requestId: call.requestId,
  });
  return new Response(JSON.stringify(result.envelope), {
    status: result.status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...result.headers,
      Deprecation: 'true',
      Link: `<${LEGACY_KEY_SUCCESSOR}>; rel="successor-version"`,
    },
  });
}
