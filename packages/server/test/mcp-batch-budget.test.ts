import { LIMITS } from '@memory-service/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseBudget } from '../src/mcp/response-budget.js';
import { createTestServer, TEST_KEY, type TestServer } from './harness.js';

// One MCP request shares one response budget: a batch carries up to 100 calls, and holding every answer in full
// multiplies each route's cap by 100 (one POST of list calls reached 4.6-5.3 GB and ended the process).

const headers = {
  authorization: `Bearer ${TEST_KEY}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

interface RpcAnswer {
  id: number;
  result: { isError?: boolean; structuredContent: any; content: Array<{ text: string }> };
}

async function batch(server: TestServer, calls: Array<{ name: string; arguments: Record<string, unknown> }>) {
  const body = calls.map((call, index) => ({ jsonrpc: '2.0', id: index + 1, method: 'tools/call', params: call }));
  const response = await server.app.request('/api/mcp', { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  const parsed = JSON.parse(text) as RpcAnswer | RpcAnswer[];
  return {
    status: response.status,
    bytes: Buffer.byteLength(text),
    answers: Array.isArray(parsed) ? parsed : [parsed],
  };
}

describe('an MCP batch shares one response budget', () => {
  let server: TestServer;
  const scope = { tenantId: 'batch-budget' };

  beforeAll(async () => {
    server = await createTestServer();
    // 100 memories at the content and metadata caps: one memories/list page of them is ~2.5 MB of JSON.
    const metadata = { blob: 'm'.repeat(LIMITS.metadata.maxBytes - 20) };
    for (let start = 0; start < 100; start += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, offset) =>
          server.post('/memories/add', {
            content: `${start + offset} ${'c'.repeat(LIMITS.memoryContent.max - 10)}`,
            metadata,
            scope,
          }),
        ),
      );
    }
  }, 60_000);

  afterAll(async () => {
    await server.close();
  });

  it('answers a batch of 20 full list pages within the budget: the first calls with data, the rest with a clear error', async () => {
    const calls = Array.from({ length: 20 }, () => ({
      name: 'list_memories',
      arguments: { tenant_id: scope.tenantId, limit: 100 },
    }));
    const { status, bytes, answers } = await batch(server, calls);
    expect(status).toBe(200);
    expect(answers).toHaveLength(20);
    // Before: 20 pages of ~5 MB each in one answer. Now at most the budget (each result counted as text and data).
    expect(bytes).toBeLessThanOrEqual(LIMITS.mcpResponseBytes + 64 * 1024);
    const served = answers.filter((answer) => answer.result.isError !== true);
    const refused = answers.filter((answer) => answer.result.isError === true);
    expect(served.length).toBeGreaterThanOrEqual(1);
    for (const answer of served) expect(answer.result.structuredContent.data.memories).toHaveLength(100);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer.result.structuredContent.error).toMatchObject({
        code: 'MCP_RESPONSE_BUDGET_EXCEEDED',
        status: 413,
        retryable: false,
        details: { limitBytes: LIMITS.mcpResponseBytes },
      });
      expect(answer.result.content[0]?.text).toMatch(
        /^MCP_RESPONSE_BUDGET_EXCEEDED: .*Send it in a request of its own/,
      );
    }
  }, 60_000);

  it('serves each refused call when it is sent on its own', async () => {
    const { answers } = await batch(server, [
      { name: 'list_memories', arguments: { tenant_id: scope.tenantId, limit: 100 } },
    ]);
    expect(answers[0]?.result.isError ?? false).toBe(false);
    expect(answers[0]?.result.structuredContent.data.memories).toHaveLength(100);
  });

  it('never runs a call that starts once the budget is spent, a write included: nothing is stored unseen', async () => {
    // Calls run two at a time in arrival order: the lists spend the budget before the write, the last call, starts.
    const calls = [
      ...Array.from({ length: 8 }, () => ({
        name: 'list_memories',
        arguments: { tenant_id: scope.tenantId, limit: 100 },
      })),
      { name: 'add_memory', arguments: { tenant_id: 'batch-writes', content: 'written inside a large batch' } },
    ];
    const { answers } = await batch(server, calls);
    const write = answers.find((answer) => answer.id === calls.length);
    expect(write?.result.isError).toBe(true);
    expect(write?.result.content[0]?.text).toMatch(/add_memory was not run/);
    const listed = await server.post<{ memories: unknown[] }>('/memories/list', {
      scope: { tenantId: 'batch-writes' },
    });
    expect(listed.memories).toHaveLength(0);
  }, 60_000);
});

describe('ResponseBudget', () => {
  it('always delivers the first answer and a write, refuses a read that does not fit, and is spent at zero', () => {
    const budget = new ResponseBudget(10, 1);
    expect(budget.take(25)).toBe(true); // the first answer, whatever its size
    expect(budget.spent).toBe(true);
    const fresh = new ResponseBudget(10, 1);
    expect(fresh.take(8)).toBe(true);
    expect(fresh.take(5, true)).toBe(true); // a write's answer, past the budget
    expect(fresh.spent).toBe(true);
    const closing = new ResponseBudget(10, 1);
    expect(closing.take(8)).toBe(true);
    expect(closing.take(5)).toBe(false); // a read that does not fit: refused, and no later call runs
    expect(closing.spent).toBe(true);
  });

  it('runs at most its concurrency at once, in arrival order', async () => {
    const budget = new ResponseBudget(1_000, 2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        budget.run(async () => {
          order.push(index);
          running++;
          peak = Math.max(peak, running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running--;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
