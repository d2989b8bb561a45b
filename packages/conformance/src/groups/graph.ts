import { assert, CheckSkipped, expectError, expectShape, expectSuccess } from '../expect.js';
import { ContextShape, GraphStatusShape, GraphTraceShape, RolloutShape } from '../shapes.js';
import { type CheckGroup, marker } from './group.js';
import { addMemory } from './memories.js';

const STATUS = 'Endpoints › GET and POST /graph/status';
const TRACE = 'Endpoints › POST /graph/trace';
const ROLLOUT = 'Endpoints › GET, POST, PATCH /graph/rollout';
const ROLLOUT_STATES = 'States and transitions › Graph rollout mode';

/** Graph status, trace and rollout (modes, the canary quality gate), all inside the run's tenant. */
export const graphGroup: CheckGroup = {
  id: 'graph',
  title: 'Graph',
  summary:
    'graph/status (GET and POST), graph/trace (legacy strategies, recall sources, tiers), graph/rollout GET/POST/PATCH with modes off and shadow, an invalid mode, and canary (allowed or 409 CANARY_ROLLOUT_BLOCKED with its details).',
  async run(t, env) {
    const scope = env.scope();
    const word = marker('grphx');
    await t.check(
      'setup',
      'linked memories for the graph checks are stored (memories/add)',
      'Endpoints › POST /memories/add',
      async () => {
        await addMemory(env, {
          content: `The ${word} gateway depends on the auth service`,
          type: 'fact',
          tags: [word, 'gateway'],
          scope,
        });
        await addMemory(env, {
          content: `The auth service for ${word} rotates keys weekly`,
          type: 'fact',
          tags: [word, 'auth'],
          scope,
        });
      },
    );

    await t.check(
      'status-get',
      'GET graph/status answers enabled, flags, health (ok or schema_missing), tables, counts, rollout, shadowMetrics, qualityGate, alarms, topConnectedNodes, recentErrors, sampledAt, scope',
      STATUS,
      async () => {
        expectShape(
          GraphStatusShape,
          expectSuccess(await env.get('/graph/status', env.query({ topNodesLimit: 5 }))),
          'graph status data',
        );
      },
    );

    await t.check('status-scope', "graph/status echoes the resolved scope (the run's tenant)", STATUS, async () => {
      const data = expectSuccess(await env.get('/graph/status', env.query()));
      assert(
        JSON.stringify(data.scope ?? null).includes(env.namespace.tenantId),
        `scope is ${JSON.stringify(data.scope)}`,
      );
    });

    await t.check(
      'status-post',
      'POST graph/status with topNodesLimit and scope answers the same fields',
      STATUS,
      async () => {
        expectShape(
          GraphStatusShape,
          expectSuccess(await env.post('/graph/status', { topNodesLimit: 5, scope })),
          'graph status data',
        );
      },
    );

    await t.check(
      'trace',
      'graph/trace answers mode, includeRules, query, strategy {requested, applied}, trace (policy fields), tiers, recall[] (rank, source), rules[], memories[]',
      TRACE,
      async () => {
        expectShape(
          GraphTraceShape,
          expectSuccess(await env.post('/graph/trace', { query: `${word} gateway`, scope })),
          'graph trace data',
        );
      },
    );

    await t.check(
      'trace-default-limit',
      'graph/trace without limit returns at most 10 memories (its default)',
      `${TRACE} (limit 10)`,
      async () => {
        for (let index = 0; index < 11; index += 1) {
          await addMemory(env, { content: `The ${word} gateway route number ${index} is public`, type: 'fact', scope });
        }
        const data = expectShape(
          GraphTraceShape,
          expectSuccess(await env.post('/graph/trace', { query: `${word} gateway route`, scope })),
          'graph trace data',
        );
        assert(
          data.memories.length <= 10,
          `returned ${data.memories.length} memories, 11 match and the default limit is 10`,
        );
      },
    );

    await t.check(
      'trace-default-strategy',
      'graph/trace without strategy reports the policy default as baseline or hybrid_graph',
      TRACE,
      async () => {
        const data = expectShape(
          GraphTraceShape,
          expectSuccess(await env.post('/graph/trace', { query: word, scope })),
          'graph trace data',
        );
        // Nothing was requested: the default shows as the requested strategy, or (requested null) as the applied one.
        const legacy = ['baseline', 'hybrid_graph'];
        const { requested, applied } = data.strategy;
        const shown = requested === null || requested === undefined ? applied : requested;
        assert(legacy.includes(shown as string), `strategy is ${JSON.stringify(data.strategy)}`);
      },
    );

    await t.check(
      'trace-legacy-strategies',
      'graph/trace accepts the legacy strategies baseline and hybrid_graph',
      `${TRACE}; Versioning`,
      async () => {
        for (const strategy of ['baseline', 'hybrid_graph']) {
          const body = { query: `${word} auth`, strategy, graphDepth: 2, scope };
          expectShape(
            GraphTraceShape,
            expectSuccess(await env.post('/graph/trace', body)),
            `graph trace data (${strategy})`,
          );
        }
      },
    );

    await t.check(
      'expansion-explainability',
      'graph-expanded memories of context/get carry memories[].graph (whyIncluded, linkedViaNode, edgeType, hopCount, confidence 0..1, seedMemoryId); checked when the server expands',
      'Resources › Graph-expanded memory explainability',
      async () => {
        const body = { query: `${word} gateway`, strategy: 'hybrid', graphDepth: 2, graphLimit: 10, limit: 10, scope };
        const data = expectShape(ContextShape, expectSuccess(await env.post('/context/get', body)), 'context data');
        const expanded = data.memories.filter((memory) => memory.graph !== undefined && memory.graph !== null);
        if (expanded.length === 0)
          throw new CheckSkipped('no memory was graph-expanded for this query (expansion is optional)');
      },
    );

    await t.check(
      'rollout-get',
      'GET graph/rollout answers rollout, shadowMetrics, qualityGate, rolloutPlan (with autopilot enabled/applied), retrievalPolicy, scope',
      ROLLOUT,
      async () => {
        expectShape(RolloutShape, expectSuccess(await env.get('/graph/rollout', env.query())), 'rollout data');
      },
    );

    await t.check(
      'rollout-post-shadow',
      'POST graph/rollout mode shadow answers the rollout data, and GET then reports shadow',
      `${ROLLOUT}; ${ROLLOUT_STATES}`,
      async () => {
        const data = expectShape(
          RolloutShape,
          expectSuccess(await env.post('/graph/rollout', { mode: 'shadow', scope })),
          'rollout data',
        );
        if ('mode' in data.rollout)
          assert(data.rollout.mode === 'shadow', `rollout.mode is ${String(data.rollout.mode)}`);
        const read = expectShape(
          RolloutShape,
          expectSuccess(await env.get('/graph/rollout', env.query())),
          'rollout data',
        );
        if ('mode' in read.rollout)
          assert(read.rollout.mode === 'shadow', `GET reports rollout.mode ${String(read.rollout.mode)}`);
      },
    );

    await t.check(
      'rollout-patch-off',
      'PATCH graph/rollout mode off answers the rollout data',
      `${ROLLOUT}; ${ROLLOUT_STATES}`,
      async () => {
        const response = await env.request({ method: 'PATCH', path: '/graph/rollout', body: { mode: 'off', scope } });
        const data = expectShape(RolloutShape, expectSuccess(response), 'rollout data');
        if ('mode' in data.rollout) assert(data.rollout.mode === 'off', `rollout.mode is ${String(data.rollout.mode)}`);
      },
    );

    await t.check('rollout-invalid-mode', 'an invalid rollout mode answers 400 INVALID_REQUEST', ROLLOUT, async () => {
      expectError(await env.post('/graph/rollout', { mode: 'everywhere', scope }), {
        status: 400,
        code: 'INVALID_REQUEST',
      });
    });

    await t.check(
      'rollout-canary',
      'canary is applied when the quality gate passes, else 409 CANARY_ROLLOUT_BLOCKED with details reasonCodes, qualityStatus, windowHours',
      `${ROLLOUT}; ${ROLLOUT_STATES}; Errors`,
      async () => {
        const response = await env.post('/graph/rollout', { mode: 'canary', scope });
        if (response.status === 200) {
          expectShape(RolloutShape, expectSuccess(response), 'rollout data');
          return;
        }
        const error = expectError(response, { status: 409, code: 'CANARY_ROLLOUT_BLOCKED' });
        const details = error.details ?? {};
        assert(Array.isArray(details.reasonCodes), 'details.reasonCodes is not an array');
        assert('qualityStatus' in details, 'details.qualityStatus is missing');
        assert(typeof details.windowHours === 'number', 'details.windowHours is not a number');
      },
    );

    await t.check(
      'rollout-restore',
      'POST graph/rollout mode off (the run leaves its tenant at off)',
      ROLLOUT,
      async () => {
        expectSuccess(await env.post('/graph/rollout', { mode: 'off', scope }));
      },
    );
  },
};
