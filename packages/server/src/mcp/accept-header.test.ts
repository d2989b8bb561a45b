import { describe, expect, it } from 'vitest';
import { MCP_POST_ACCEPT, withMcpAccept } from './accept-header.js';

const post = (accept?: string) =>
  new Request('http://localhost/api/mcp', {
    method: 'POST',
    headers: accept === undefined ? {} : { accept },
    body: '{}',
  });

describe('withMcpAccept', () => {
  it.each([undefined, '', '*/*', 'application/*, text/*', 'text/event-stream, */*;q=0.1'])(
    'gives %j the Accept the transport wants',
    async (accept) => {
      const request = withMcpAccept(post(accept));
      expect(request.headers.get('accept')).toBe(MCP_POST_ACCEPT);
      expect(await request.text()).toBe('{}');
    },
  );

  it.each(['text/html', 'application/json', 'application/json, text/*;q=0', MCP_POST_ACCEPT])(
    'leaves %j as sent',
    (accept) => {
      const request = post(accept);
      expect(withMcpAccept(request)).toBe(request);
    },
  );
});
