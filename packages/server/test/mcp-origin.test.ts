import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createTestServer, type TestServer } from './harness.js';

/**
 * The MCP endpoint validates `Origin` (MCP Streamable HTTP transport: servers MUST), so that a page of another site
 * cannot call the tools of a server on the visitor's machine.
 */

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'origin-test', version: '1.0.0' } },
};

function post(server: TestServer, origin?: string, key?: string | null) {
  return server.call('POST', '/api/mcp', initialize, {
    ...(key === undefined ? {} : { key }),
    headers: { accept: 'application/json, text/event-stream', ...(origin === undefined ? {} : { origin }) },
  });
}

let byDefault: TestServer;
let configured: TestServer;
beforeAll(async () => {
  byDefault = await createTestServer();
  configured = await createTestServer({ mcpAllowedOrigins: ['https://app.example.com', 'tools.example.org'] });
});
afterAll(async () => {
  await byDefault.close();
  await configured.close();
});

describe('Origin on /api/mcp', () => {
  it('refuses a page of another site with 403 and a JSON-RPC error, before looking at the key', async () => {
    for (const key of [undefined, null]) {
      const response = await post(byDefault, 'http://evil.example', key);
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    }
    expect((await post(byDefault, 'null')).status).toBe(403);
    expect((await post(byDefault, 'http://localhost.evil.example')).status).toBe(403);
  });

  it('serves clients without an Origin (not browsers) and pages of the listen host or localhost', async () => {
    for (const origin of [undefined, 'http://localhost:5173', 'http://127.0.0.1:8787', 'http://[::1]:3000']) {
      const response = await post(byDefault, origin);
      expect(response.status, String(origin)).toBe(200);
      expect(response.body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: expect.any(Object) } });
    }
  });

  it('with MEMORY_MCP_ALLOWED_ORIGINS, serves exactly the listed origins and host names', async () => {
    expect((await post(configured, 'https://app.example.com')).status).toBe(200);
    expect((await post(configured, 'http://tools.example.org:8080')).status).toBe(200);
    expect((await post(configured, 'http://app.example.com')).status).toBe(403);
    expect((await post(configured, 'http://localhost:5173')).status).toBe(403);
    expect((await post(configured, 'http://evil.example')).status).toBe(403);
    expect((await post(configured)).status).toBe(200);
  });

  it('reads MEMORY_MCP_ALLOWED_ORIGINS as a comma-separated list', () => {
    expect(
      loadConfig({ MEMORY_MCP_ALLOWED_ORIGINS: ' https://App.example.com , tools.example.org,' }).mcpAllowedOrigins,
    ).toEqual(['https://app.example.com', 'tools.example.org']);
  });
});
