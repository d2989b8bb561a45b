import { API_PREFIX, buildPath, type HttpMethod, type OperationId, operations } from '@memory-service/contract';
import { ValidationError } from '../errors.js';

/** Method, path and payload of one operation call over HTTP. */
export interface HttpRequestParts {
  method: HttpMethod;
  /** Relative to `/api/sdk/v1`, path parameters filled in. */
  path: string;
  searchParams?: Record<string, string>;
  json?: Record<string, unknown>;
}

function toSearchParams(values: Record<string, unknown>): Record<string, string> {
  const searchParams: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue;
    searchParams[key] = typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  return searchParams;
}

/** Builds an operation's HTTP request from the table: path parameters, then the query string (GET/DELETE) or the body. */
export function buildHttpRequest(operationId: OperationId, input: Record<string, unknown>): HttpRequestParts {
  const operation = operations[operationId];
  const values = { ...input };
  const pathParams: Record<string, string> = {};
  for (const name of operation.pathParams) {
    const value = values[name];
    if (typeof value !== 'string' || value === '') {
      throw new ValidationError({
        code: 'INVALID_REQUEST',
        message: `${name} is required (${operationId}: ${operation.method} ${API_PREFIX}${operation.path})`,
        status: null,
        type: 'validation_error',
        retryable: false,
        details: { field: name },
        operationId,
      });
    }
    pathParams[name] = value;
    delete values[name];
  }
  const path = buildPath(operation, pathParams);
  if (operation.inputLocation === 'query')
    return { method: operation.method, path, searchParams: toSearchParams(values) };
  return { method: operation.method, path, json: values };
}
