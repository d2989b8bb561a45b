import { assert, eventually, expectShape, expectSuccess, need } from '../expect.js';
import { ContextShape } from '../shapes.js';
import { type CheckGroup, marker } from './group.js';
import { addMemory } from './memories.js';

const CONTEXT = 'Endpoints › POST /context/get';

/** POST /context/get: the bundle, rules, limit, strategies and their deprecated aliases, graph parameters. */
export const contextGroup: CheckGroup = {
  id: 'context',
  title: 'Context',
  summary:
    'context/get: the bundle (rules, memories, skillFiles, working/long-term tiers, the 18 trace fields), default mode, includeRules, limit, strategies and aliases, graphDepth and graphLimit.',
  async run(t, env) {
    const scope = env.scope({ userId: env.namespace.userId });
    const word = marker('ctxx');
    const ids = await t.check(
      'setup',
      'memories for the context checks are stored (memories/add)',
      'Endpoints › POST /memories/add',
      async () => {
        const rule = await addMemory(env, {
          content: `Never deploy ${word} on Fridays`,
          type: 'rule',
          layer: 'rule',
          scope,
        });
        const facts: string[] = [];
        for (const detail of [
          'uses Postgres',
          'runs in Frankfurt',
          'has two replicas',
          'is owned by the platform team',
        ]) {
          facts.push(
            await addMemory(env, {
              content: `The ${word} service ${detail}`,
              type: 'fact',
              tags: [word, 'infra'],
              scope,
            }),
          );
        }
        return { rule, facts };
      },
    );

    await t.check(
      'shape',
      'context/get answers mode, query, rules[], memories[], skillFiles[], workingMemories[], longTermMemories[], trace (all 18 fields)',
      CONTEXT,
      async () => {
        const data = expectSuccess(await env.post('/context/get', { query: `${word} service`, scope }));
        expectShape(ContextShape, data, 'context data');
      },
    );

    await t.check('default-mode', 'context/get without mode answers mode all', CONTEXT, async () => {
      const data = expectShape(
        ContextShape,
        expectSuccess(await env.post('/context/get', { query: word, scope })),
        'context data',
      );
      assert(data.mode === 'all', `mode is ${data.mode}`);
    });

    await t.check(
      'finds-memories',
      'context/get returns the stored memories that match the query',
      `${CONTEXT}; What the service does`,
      async () => {
        const { facts } = need(ids, 'the stored memories');
        await eventually(async () => {
          const data = expectShape(
            ContextShape,
            expectSuccess(await env.post('/context/get', { query: `${word} Frankfurt`, limit: 10, scope })),
            'context data',
          );
          const found = data.memories.map((memory) => (memory as { id?: unknown }).id);
          assert(found.includes(facts[1]), `the matching memory is not in memories[] (got ${found.length})`);
        });
      },
    );

    await t.check(
      'rules',
      'rules[] holds the rule by default and is empty with includeRules false',
      `${CONTEXT} (includeRules)`,
      async () => {
        const { rule } = need(ids, 'the stored memories');
        await eventually(async () => {
          const data = expectShape(
            ContextShape,
            expectSuccess(await env.post('/context/get', { query: `${word} deploy`, scope })),
            'context data',
          );
          const found = data.rules.map((each) => (each as { id?: unknown }).id);
          assert(found.includes(rule), 'the rule is not in rules[]');
        });
        const without = expectShape(
          ContextShape,
          expectSuccess(await env.post('/context/get', { query: `${word} deploy`, includeRules: false, scope })),
          'context data',
        );
        assert(without.rules.length === 0, `includeRules false returned ${without.rules.length} rules`);
      },
    );

    await t.check('limit', 'context/get returns at most limit memories', `${CONTEXT} (limit 1..50)`, async () => {
      need(ids, 'the stored memories');
      const data = expectShape(
        ContextShape,
        expectSuccess(await env.post('/context/get', { query: `${word} service`, limit: 2, scope })),
        'context data',
      );
      assert(data.memories.length <= 2, `limit 2 returned ${data.memories.length} memories`);
    });

    await t.check(
      'default-limit',
      'context/get without limit returns at most 5 memories (the default)',
      `${CONTEXT} (limit default 5)`,
      async () => {
        need(ids, 'the stored memories');
        for (const detail of ['logs to Loki', 'alerts on PagerDuty', 'backs up nightly']) {
          await addMemory(env, { content: `The ${word} service ${detail}`, type: 'fact', tags: [word], scope });
        }
        const data = expectShape(
          ContextShape,
          expectSuccess(await env.post('/context/get', { query: `${word} service`, scope })),
          'context data',
        );
        assert(
          data.memories.length <= 5,
          `returned ${data.memories.length} memories, 7 match and the default limit is 5`,
        );
      },
    );

    for (const strategy of ['lexical', 'hybrid'] as const) {
      await t.check(
        `strategy-${strategy}`,
        `context/get takes strategy ${strategy}`,
        `${CONTEXT} (strategy)`,
        async () => {
          expectShape(
            ContextShape,
            expectSuccess(await env.post('/context/get', { query: word, strategy, scope })),
            'context data',
          );
        },
      );
    }

    await t.check(
      'strategy-aliases',
      'context/get still accepts the deprecated aliases baseline and hybrid_graph',
      `Versioning; ${CONTEXT} (strategy)`,
      async () => {
        for (const strategy of ['baseline', 'hybrid_graph']) {
          expectShape(
            ContextShape,
            expectSuccess(await env.post('/context/get', { query: word, strategy, scope })),
            `context data (${strategy})`,
          );
        }
      },
    );

    await t.check(
      'graph-parameters',
      'context/get takes graphDepth 0, 1 and 2 and graphLimit 1 and 50',
      `${CONTEXT} (graphDepth, graphLimit); Limits`,
      async () => {
        for (const [graphDepth, graphLimit] of [
          [0, 1],
          [1, 8],
          [2, 50],
        ]) {
          const body = { query: `${word} infra`, strategy: 'hybrid', graphDepth, graphLimit, scope };
          expectShape(
            ContextShape,
            expectSuccess(await env.post('/context/get', body)),
            `context data (graphDepth ${graphDepth})`,
          );
        }
      },
    );

    await t.check(
      'tiers',
      'every memory in workingMemories[] and longTermMemories[] is an object, and memories[] holds objects',
      `${CONTEXT}; Resources › Memory (tiers)`,
      async () => {
        const data = expectShape(
          ContextShape,
          expectSuccess(await env.post('/context/get', { query: `${word} service`, limit: 10, scope })),
          'context data',
        );
        for (const list of [data.workingMemories, data.longTermMemories, data.memories]) {
          assert(
            list.every((each) => each !== null && typeof each === 'object'),
            'a tier holds a non-object',
          );
        }
      },
    );
  },
};
