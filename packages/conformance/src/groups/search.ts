import { assert, eventually, expectError, expectShape, expectSuccess, need } from '../expect.js';
import { SearchShape } from '../shapes.js';
import { type CheckGroup, marker } from './group.js';
import { addMemory } from './memories.js';

const SEARCH = 'Endpoints › POST /memories/search';

/** POST /memories/search: results, trace, filters, limit, strategies, QUERY_REQUIRED. */
export const searchGroup: CheckGroup = {
  id: 'search',
  title: 'Search',
  summary:
    'memories/search: memories[], count, trace (requestedStrategy, appliedStrategy), type filter, limit, strategies and aliases, QUERY_REQUIRED.',
  async run(t, env) {
    const scope = env.scope();
    const word = marker('srchx');
    const ids = await t.check(
      'setup',
      'memories for the search checks are stored (memories/add)',
      'Endpoints › POST /memories/add',
      async () => {
        const fact = await addMemory(env, { content: `The ${word} cluster runs on arm64 nodes`, type: 'fact', scope });
        const decision = await addMemory(env, {
          content: `We decided the ${word} cluster stays on arm64`,
          type: 'decision',
          scope,
        });
        const note = await addMemory(env, {
          content: `Note: ${word} cluster upgrade next quarter`,
          type: 'note',
          scope,
        });
        return { fact, decision, note };
      },
    );

    await t.check(
      'finds',
      'memories/search answers memories[], count and trace, and finds the matching memories',
      SEARCH,
      async () => {
        const { fact, decision } = need(ids, 'the stored memories');
        await eventually(async () => {
          const data = expectShape(
            SearchShape,
            expectSuccess(await env.post('/memories/search', { query: `${word} arm64`, scope })),
            'search data',
          );
          const found = data.memories.map((memory) => memory.id);
          assert(found.includes(fact) && found.includes(decision), `found ${JSON.stringify(found)}`);
        });
      },
    );

    await t.check('type-filter', 'memories/search with type returns only that type', SEARCH, async () => {
      const { decision } = need(ids, 'the stored memories');
      const data = expectShape(
        SearchShape,
        expectSuccess(await env.post('/memories/search', { query: `${word} cluster`, type: 'decision', scope })),
        'search data',
      );
      const types = data.memories.map((memory) => (memory as { type?: unknown }).type);
      assert(
        types.every((type) => type === undefined || type === 'decision'),
        `type decision found ${JSON.stringify(types)}`,
      );
      assert(
        data.memories.some((memory) => memory.id === decision),
        'the decision is not found',
      );
    });

    await t.check('limit', 'memories/search returns at most limit memories', `${SEARCH} (limit 1..50)`, async () => {
      need(ids, 'the stored memories');
      const data = expectShape(
        SearchShape,
        expectSuccess(await env.post('/memories/search', { query: `${word} cluster`, limit: 1, scope })),
        'search data',
      );
      assert(data.memories.length <= 1, `limit 1 returned ${data.memories.length} memories`);
    });

    await t.check(
      'strategy-trace',
      'trace.requestedStrategy echoes lexical and hybrid; appliedStrategy is set',
      `${SEARCH} (trace)`,
      async () => {
        for (const strategy of ['lexical', 'hybrid']) {
          const data = expectShape(
            SearchShape,
            expectSuccess(await env.post('/memories/search', { query: word, strategy, scope })),
            'search data',
          );
          assert(
            data.trace.requestedStrategy === strategy,
            `requested ${strategy}, trace.requestedStrategy is ${String(data.trace.requestedStrategy)}`,
          );
          assert(
            typeof data.trace.appliedStrategy === 'string',
            `trace.appliedStrategy is ${String(data.trace.appliedStrategy)}`,
          );
        }
      },
    );

    await t.check(
      'strategy-aliases',
      'memories/search accepts the deprecated aliases baseline and hybrid_graph (strategy as in context/get)',
      `${SEARCH}; Versioning`,
      async () => {
        for (const strategy of ['baseline', 'hybrid_graph']) {
          expectShape(
            SearchShape,
            expectSuccess(await env.post('/memories/search', { query: word, strategy, scope })),
            `search data (${strategy})`,
          );
        }
      },
    );

    await t.check('query-required', 'an empty query answers 400 QUERY_REQUIRED', `${SEARCH}; Errors`, async () => {
      expectError(await env.post('/memories/search', { query: '', scope }), { status: 400, code: 'QUERY_REQUIRED' });
    });
  },
};
