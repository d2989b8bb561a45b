import type { OperationDefinition } from '@memory-service/contract';
import { ApiError } from '../api-error.js';

function isJsonContentType(value: string | null): boolean {
  if (value === null) return true;
  const type = value.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === '' || type === 'application/json' || type.endsWith('+json');
}

/**
 * Parses a JSON body (empty body = `{}`), with INVALID_REQUEST on anything else. Its size was capped before the
 * route ran (`limitRequestBody()`, hono's `bodyLimit()`), so reading it whole is bounded.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  if (!isJsonContentType(request.headers.get('content-type'))) {
    throw new ApiError('INVALID_REQUEST', 'The body must be JSON (Content-Type: application/json)', { field: 'body' });
  }
  const text = await request.text();
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new ApiError('INVALID_REQUEST', 'The body must be a JSON object', { field: 'body' });
    }
    return value;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError('INVALID_REQUEST', 'The body is not valid JSON', { field: 'body' });
  }
}

/** Query parameters (last value wins) plus path parameters, as the operation's raw input. */
export function readQueryInput(url: URL, pathParams: Record<string, string>): Record<string, unknown> {
  const input: Record<string, unknown> = Object.create(null);
  for (const [key, value] of url.searchParams) input[key] = value;
  for (const [key, value] of Object.entries(pathParams)) input[key] = value;
  return { ...input };
}

/** Reads an operation's raw input from an HTTP request. */
export async function readOperationInput(
  operation: OperationDefinition,
  request: Request,
  pathParams: Record<string, string>,
): Promise<unknown> {
  if (operation.inputLocation === 'body') return readJsonBody(request);
  return readQueryInput(new URL(request.url), pathParams);
}
