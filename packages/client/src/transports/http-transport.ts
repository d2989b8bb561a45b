import {
  API_PREFIX,
  buildPath,
  type HttpMethod,
  type OperationData,
  type OperationId,
  type OperationRequest,
  operations,
} from '@memory-service/contract';
import ky, { isNetworkError, isTimeoutError } from 'ky';
import { ConnectionError, TimeoutError, ValidationError } from '../errors.js';
import { unwrapEnvelope } from './envelope.js';
import { bearerTokenFor, type Transport, type TransportSettings } from './transport.js';

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

/** The `sdk_http` transport: JSON over HTTP with ky, Bearer key, envelope unwrapped; retries are left to `retry.ts`. */
export function createHttpTransport(settings: TransportSettings): Transport {
  const http = ky.create({
    prefix: `${settings.rootUrl}${API_PREFIX}`,
    timeout: settings.timeoutMs,
    retry: 0,
    throwHttpErrors: false,
    ...(settings.fetch === undefined ? {} : { fetch: settings.fetch }),
  });

  async function send<Id extends OperationId>(
    operationId: Id,
    input: OperationRequest<Id>,
  ): Promise<OperationData<Id>> {
    const request = buildHttpRequest(operationId, input as Record<string, unknown>);
    const route = `${request.method} ${API_PREFIX}${request.path}`;
    const token = bearerTokenFor(operationId, settings);
    const headers: Record<string, string> = { ...settings.headers };
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    let response: Response;
    try {
      response = await http(request.path, {
        method: request.method,
        headers,
        ...(request.searchParams === undefined ? {} : { searchParams: request.searchParams }),
        ...(request.json === undefined ? {} : { json: request.json }),
      });
    } catch (error) {
      const context = { operationId, endpoint: route, cause: error };
      if (isTimeoutError(error)) {
        throw new TimeoutError(`No response within ${settings.timeoutMs} ms (${operationId}: ${route})`, context);
      }
      if (isNetworkError(error) || error instanceof TypeError) {
        throw new ConnectionError(`Could not reach the memory service (${operationId}: ${route})`, context);
      }
      throw error;
    }
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON (a proxy's error page, say): unwrapEnvelope classifies it by status.
    }
    return unwrapEnvelope(body, {
      operationId,
      route,
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      requestId: response.headers.get('x-request-id'),
    }) as OperationData<Id>;
  }

  return Object.assign(send, { transportName: 'sdk_http' as const, close: async () => {} });
}
