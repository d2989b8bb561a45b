import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetDeprecationWarnings } from '../src/deprecation.js';
import { API_URL, createTestClient, successEnvelope } from './helpers.js';

const sentStrategies: unknown[] = [];
const server = setupServer(
  http.post(`${API_URL}/*`, async ({ request }) => {
    sentStrategies.push(((await request.json()) as { strategy?: unknown }).strategy);
    return HttpResponse.json(successEnvelope({ memories: [] }));
  }),
);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
beforeEach(() => {
  resetDeprecationWarnings();
  sentStrategies.length = 0;
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

describe('strategy aliases', () => {
  it('normalizes baseline and hybrid_graph and warns once per alias per process', async () => {
    vi.stubEnv('MEMORY_SUPPRESS_DEPRECATION_WARNINGS', '');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const client = createTestClient();
    await client.context.get({ query: 'q', strategy: 'baseline' });
    await client.context.get({ query: 'q', strategy: 'baseline' });
    await client.memories.search({ query: 'q', strategy: 'baseline' });
    await createTestClient().memories.search({ query: 'q', strategy: 'hybrid_graph' });
    await client.context.get({ query: 'q', strategy: 'hybrid_graph' });
    await client.context.get({ query: 'q', strategy: 'lexical' });
    expect(sentStrategies).toEqual(['lexical', 'lexical', 'lexical', 'hybrid', 'hybrid', 'lexical']);
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls[0]?.[0]).toContain('"baseline" is deprecated; use "lexical"');
    expect(warn.mock.calls[1]?.[0]).toContain('"hybrid_graph" is deprecated; use "hybrid"');
  });

  it.each(['1', 'true', 'YES', 'on'])('is silenced by MEMORY_SUPPRESS_DEPRECATION_WARNINGS=%s', async (value) => {
    vi.stubEnv('MEMORY_SUPPRESS_DEPRECATION_WARNINGS', value);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await createTestClient().context.get({ query: 'q', strategy: 'hybrid_graph' });
    expect(sentStrategies).toEqual(['hybrid']);
    expect(warn).not.toHaveBeenCalled();
  });

  it('still warns when the variable holds another value', async () => {
    vi.stubEnv('MEMORY_SUPPRESS_DEPRECATION_WARNINGS', 'no');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await createTestClient().context.get({ strategy: 'baseline' });
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
