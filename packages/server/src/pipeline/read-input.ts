import { LIMITS, type OperationDefinition } from '@memory-service/contract';
import { ApiError } from '../api-error.js';

/** Reads a request body as text, refusing more than the cap before parsing (DESIGN 9). */
async function readCappedText(request: Request, capBytes: number): Promise<string> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > capBytes) throw bodyTooLarge(capBytes);
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > capBytes) {
      await reader.cancel().catch(() => undefined);
      throw bodyTooLarge(capBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function bodyTooLarge(capBytes: number): ApiError {
  return new ApiError('INVALID_REQUEST', `The request body is larger than ${capBytes} bytes`, {
    field: 'body',
    maxBytes: capBytes,
  });
}

function isJsonContentType(value: string | null): boolean {
  if (value === null) return true;
  const type = value.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === '' || type === 'application/json' || type.endsWith('+json');
}

/** Parses a JSON body (empty body = `{}`), capped at 1 MiB, with INVALID_REQUEST on anything else. */
export async function readJsonBody(request: Request): Promise<unknown> {
  if (!isJsonContentType(request.headers.get('content-type'))) {
    throw new ApiError('INVALID_REQUEST', 'The body must be JSON (Content-Type: application/json)', { field: 'body' });
  }
  const text = await readCappedText(request, LIMITS.requestBodyBytes);
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
