import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { resolveBaseUrl } from '../src/create-client.js';
import { createMemoryClient } from '../src/index.js';
import { API_KEY, BASE_URL, successEnvelope } from './helpers.js';

let mcpModuleLoads = 0;
vi.mock('@modelcontextprotocol/client', async (importOriginal) => {
  mcpModuleLoads += 1;
  return importOriginal();
});

const seen: Array<{ url: string; authorization: string | null }> = [];
const server = setupServer(
  http.all('*/api/sdk/v1/*', ({ request }) => {
    seen.push({ url: request.url, authorization: request.headers.get('authorization') });
    return HttpResponse.json(successEnvelope({ status: 'ok' }));
  }),
);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  seen.length = 0;
  vi.unstubAllEnvs();
});
afterAll(() => server.close());

describe('base URL', () => {
  it.each([
    ['https://memory.test', 'https://memory.test', false],
    ['https://memory.test/', 'https://memory.test', false],
    ['https://memory.test/api/sdk/v1', 'https://memory.test', false],
    ['https://memory.test/api/sdk/v1/', 'https://memory.test', false],
    ['https://memory.test/api/mcp', 'https://memory.test', true],
    ['https://proxy.test/memory/api/mcp/', 'https://proxy.test/memory', true],
  ])('%s -> %s (mcp: %s)', (baseUrl, rootUrl, pointsAtMcp) => {
    expect(resolveBaseUrl(baseUrl)).toEqual({ rootUrl, pointsAtMcp });
  });

  it('picks the transport: auto follows the URL, explicit values win', () => {
    expect(createMemoryClient({ baseUrl: BASE_URL }).transport).toBe('sdk_http');
    expect(createMemoryClient({ baseUrl: `${BASE_URL}/api/mcp` }).transport).toBe('mcp');
    expect(createMemoryClient({ baseUrl: `${BASE_URL}/api/mcp`, transport: 'sdk_http' }).transport).toBe('sdk_http');
    expect(createMemoryClient({ baseUrl: BASE_URL, transport: 'mcp' }).transport).toBe('mcp');
  });

  it('sends HTTP calls under /api/sdk/v1 even when the base URL names the MCP endpoint', async () => {
    await createMemoryClient({ baseUrl: `${BASE_URL}/api/mcp`, transport: 'sdk_http', apiKey: API_KEY }).health();
    expect(seen[0]?.url).toBe(`${BASE_URL}/api/sdk/v1/health`);
  });
});

describe('environment fallbacks', () => {
  it('reads MEMORY_BASE_URL and MEMORY_API_KEY', async () => {
    vi.stubEnv('MEMORY_BASE_URL', 'https://from-env.test/api/sdk/v1');
    vi.stubEnv('MEMORY_API_KEY', 'mem_from_env');
    await createMemoryClient().health();
    expect(seen).toEqual([{ url: 'https://from-env.test/api/sdk/v1/health', authorization: 'Bearer mem_from_env' }]);
  });

  it('prefers explicit options over the environment', async () => {
    vi.stubEnv('MEMORY_BASE_URL', 'https://from-env.test');
    vi.stubEnv('MEMORY_API_KEY', 'mem_from_env');
    await createMemoryClient({ baseUrl: BASE_URL, apiKey: API_KEY }).health();
    expect(seen).toEqual([{ url: `${BASE_URL}/api/sdk/v1/health`, authorization: `Bearer ${API_KEY}` }]);
  });

  it('explains a missing base URL', () => {
    vi.stubEnv('MEMORY_BASE_URL', '');
    expect(() => createMemoryClient()).toThrow('baseUrl is missing: pass baseUrl or set MEMORY_BASE_URL');
  });
});

describe('option checks', () => {
  it('refuses nonsense', () => {
    expect(() => createMemoryClient({ baseUrl: 'not a url' })).toThrow(TypeError);
    expect(() => createMemoryClient({ baseUrl: BASE_URL, timeoutMs: 0 })).toThrow('timeoutMs');
    expect(() => createMemoryClient({ baseUrl: BASE_URL, maxRetries: -1 })).toThrow('maxRetries');
    // @ts-expect-error: not a transport
    expect(() => createMemoryClient({ baseUrl: BASE_URL, transport: 'grpc' })).toThrow("transport must be 'auto'");
  });
});

describe('the MCP client package', () => {
  it('is not loaded by the sdk_http transport', async () => {
    const client = createMemoryClient({ baseUrl: BASE_URL, apiKey: API_KEY });
    await client.health();
    await client.close();
    expect(mcpModuleLoads).toBe(0);
  });
});
