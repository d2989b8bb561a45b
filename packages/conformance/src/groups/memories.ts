import type { RunEnvironment } from '../environment.js';
import { assert, CheckSkipped, eventually, expectError, expectShape, expectSuccess, need } from '../expect.js';
import {
  AddMemoryShape,
  BulkForgetDryRunShape,
  BulkForgetShape,
  ConsolidateShape,
  EditShape,
  ForgetShape,
  ListShape,
  VacuumShape,
} from '../shapes.js';
import { type CheckGroup, marker } from './group.js';

const ADD = 'Endpoints › POST /memories/add';
const LIST = 'Endpoints › POST /memories/list';
const EDIT = 'Endpoints › POST /memories/edit';
const FORGET = 'Endpoints › POST /memories/forget';
const BULK = 'Endpoints › POST /memories/bulk-forget';
const VACUUM = 'Endpoints › POST /memories/vacuum';
const CONSOLIDATE = 'Endpoints › POST /memories/consolidate';

/** The ids memories/list returns for a scope (up to 100). */
export async function listedIds(env: RunEnvironment, body: Record<string, unknown>): Promise<string[]> {
  const data = expectShape(
    ListShape,
    expectSuccess(await env.post('/memories/list', { limit: 100, ...body })),
    'list data',
  );
  return data.memories.map((memory) => memory.id);
}

/** Adds a memory and returns its id (the check fails when the add does). */
export async function addMemory(env: RunEnvironment, body: Record<string, unknown>): Promise<string> {
  const data = expectShape(AddMemoryShape, expectSuccess(await env.post('/memories/add', body), 201), 'add data');
  return data.id;
}

/** Add, list, edit, forget, bulk-forget, vacuum and consolidate, with the memory state transitions. */
export const memoriesGroup: CheckGroup = {
  id: 'memories',
  title: 'Memories',
  summary:
    'memories/add (201 and its fields), list (filters, limit), edit (only-id refused), forget, bulk-forget (dry run, filters, all), vacuum, consolidate.',
  async run(t, env) {
    const scope = env.scope({ projectId: env.namespace.projectId });
    const word = marker('memx');
    const added = await t.check(
      'add-201',
      'memories/add answers 201 with id, message, memory, embeddingModel, embeddingModelSource',
      ADD,
      async () => {
        const response = await env.post('/memories/add', {
          content: `The ${word} service deploys on Tuesdays`,
          type: 'fact',
          scope,
        });
        const data = expectShape(AddMemoryShape, expectSuccess(response, 201), 'add data');
        const memory = data.memory;
        if ('id' in memory) assert(memory.id === data.id, `memory.id ${String(memory.id)} differs from id ${data.id}`);
        if ('content' in memory)
          assert(String(memory.content).includes(word), 'memory.content is not the content sent');
        return data.id;
      },
    );

    const full = await t.check(
      'add-all-fields',
      'memories/add takes type, layer, tags, paths, category, metadata (a rule in layer rule)',
      `${ADD}; Resources › Memory`,
      async () =>
        addMemory(env, {
          content: `Always run the ${word} checks before merging`,
          type: 'rule',
          layer: 'rule',
          tags: ['release', word],
          paths: ['src/index.ts'],
          category: 'process',
          metadata: { source: 'conformance' },
          scope,
        }),
    );

    const decision = await t.check(
      'add-decision',
      'memories/add stores type decision and type note',
      'Resources › Memory (type values)',
      async () => {
        const first = await addMemory(env, {
          content: `We chose ${word} storage for decisions`,
          type: 'decision',
          tags: [word],
          scope,
        });
        const second = await addMemory(env, { content: `A note about ${word} onboarding`, type: 'note', scope });
        return [first, second] as const;
      },
    );

    await t.check(
      'list-contains',
      'memories/list returns memories[] and count, with the memories added',
      LIST,
      async () => {
        const ids = await listedIds(env, { scope });
        for (const id of [need(added, 'memories/add'), need(full, 'memories/add')])
          assert(ids.includes(id), `memory ${id} is not listed`);
      },
    );

    await t.check('list-type-filter', 'memories/list with type returns only that type', LIST, async () => {
      const response = await env.post('/memories/list', { type: 'rule', limit: 100, scope });
      const data = expectShape(ListShape, expectSuccess(response), 'list data');
      const types = data.memories.map((memory) => (memory as { type?: unknown }).type);
      assert(
        types.every((type) => type === undefined || type === 'rule'),
        `type rule listed ${JSON.stringify(types)}`,
      );
      assert(
        data.memories.some((memory) => memory.id === full),
        'the rule is not listed',
      );
    });

    await t.check('list-layer-filter', 'memories/list with layer rule returns only that layer', LIST, async () => {
      const data = expectShape(
        ListShape,
        expectSuccess(await env.post('/memories/list', { layer: 'rule', limit: 100, scope })),
        'list data',
      );
      const layers = data.memories.map((memory) => (memory as { layer?: unknown }).layer);
      assert(
        layers.every((layer) => layer === undefined || layer === 'rule'),
        `layer rule listed ${JSON.stringify(layers)}`,
      );
      assert(
        data.memories.some((memory) => memory.id === need(full, 'memories/add')),
        'the rule-layer memory is not listed',
      );
    });

    await t.check(
      'list-tags-string',
      'memories/list takes tags as a single string and filters by it',
      LIST,
      async () => {
        need(decision, 'memories/add');
        const ids = await listedIds(env, { tags: word, scope });
        assert(ids.includes(decision![0]), 'the memory tagged with the string is not listed');
        assert(!ids.includes(need(added, 'memories/add')), 'a memory without the tag is listed');
      },
    );

    await t.check('list-limit', 'memories/list honours limit', LIST, async () => {
      const data = expectShape(
        ListShape,
        expectSuccess(await env.post('/memories/list', { limit: 1, scope })),
        'list data',
      );
      assert(data.memories.length <= 1, `limit 1 returned ${data.memories.length} memories`);
      assert(Number.isInteger(data.count), 'count is not an integer');
    });

    await t.check(
      'edit',
      'memories/edit answers id, updated: true, message, embeddingModel, embeddingModelSource; the change is stored',
      EDIT,
      async () => {
        const id = need(added, 'memories/add');
        const content = `The ${word} service deploys on Wednesdays`;
        const data = expectShape(
          EditShape,
          expectSuccess(await env.post('/memories/edit', { id, content, scope })),
          'edit data',
        );
        assert(data.id === id, `edit answered id ${data.id}`);
        const listed = expectSuccess(await env.post('/memories/list', { limit: 100, scope })) as {
          memories: Record<string, unknown>[];
        };
        const memory = listed.memories.find((each) => each.id === id);
        assert(memory !== undefined, 'the edited memory is no longer listed');
        if ('content' in memory) assert(memory.content === content, 'memories/list shows the old content');
      },
    );

    await t.check(
      'edit-only-id',
      'memories/edit with only id is refused: 400 INVALID_REQUEST',
      `${EDIT}; States and transitions › Memory`,
      async () => {
        expectError(await env.post('/memories/edit', { id: need(added, 'memories/add'), scope }), {
          status: 400,
          code: 'INVALID_REQUEST',
        });
      },
    );

    await t.check(
      'forget',
      'memories/forget answers id, deleted: true, message; the memory is no longer listed',
      FORGET,
      async () => {
        const id = need(decision, 'memories/add')[1];
        const data = expectShape(
          ForgetShape,
          expectSuccess(await env.post('/memories/forget', { id, scope })),
          'forget data',
        );
        assert(data.id === id, `forget answered id ${data.id}`);
        assert(!(await listedIds(env, { scope })).includes(id), 'the forgotten memory is still listed');
      },
    );

    const bulkWord = marker('bulkx');
    const bulkIds = await t.check(
      'bulk-dry-run',
      'bulk-forget with dryRun previews count, memories[] (id, type, contentPreview), message and deletes nothing',
      BULK,
      async () => {
        const ids = [
          await addMemory(env, {
            content: `First ${bulkWord} memory to forget in bulk`,
            type: 'note',
            tags: [bulkWord],
            scope,
          }),
          await addMemory(env, {
            content: `Second ${bulkWord} memory to forget in bulk`,
            type: 'fact',
            tags: [bulkWord],
            scope,
          }),
        ];
        const response = await env.post('/memories/bulk-forget', {
          filters: { tags: [bulkWord] },
          dryRun: true,
          scope,
        });
        const data = expectShape(BulkForgetDryRunShape, expectSuccess(response), 'dry-run data');
        assert(data.count === 2, `the dry run counted ${data.count} matches, 2 memories carry the tag`);
        const previewIds = data.memories.map((memory) => memory.id).sort();
        assert(
          JSON.stringify(previewIds) === JSON.stringify([...ids].sort()),
          `the preview lists ${JSON.stringify(previewIds)}`,
        );
        const listed = await listedIds(env, { scope });
        assert(
          ids.every((id) => listed.includes(id)),
          'a dry run deleted memories',
        );
        return ids;
      },
    );

    await t.check(
      'bulk-tags',
      'bulk-forget with filters.tags and dryRun false answers count, ids[], message and soft-deletes them',
      BULK,
      async () => {
        const ids = need(bulkIds, 'the bulk-forget dry run');
        const data = expectShape(
          BulkForgetShape,
          expectSuccess(
            await env.post('/memories/bulk-forget', { filters: { tags: [bulkWord] }, dryRun: false, scope }),
          ),
          'bulk-forget data',
        );
        assert(
          data.count === 2 && [...data.ids].sort().join() === [...ids].sort().join(),
          `forgot ${JSON.stringify(data.ids)}`,
        );
        const listed = await listedIds(env, { scope });
        assert(!ids.some((id) => listed.includes(id)), 'bulk-forgotten memories are still listed');
      },
    );

    await t.check('bulk-types-pattern', 'bulk-forget matches filters.types and filters.pattern', BULK, async () => {
      const patternWord = marker('patx');
      const id = await addMemory(env, { content: `Pattern ${patternWord} target`, type: 'note', scope });
      const byType = expectShape(
        BulkForgetDryRunShape,
        expectSuccess(await env.post('/memories/bulk-forget', { filters: { types: ['note'] }, dryRun: true, scope })),
        'dry-run data',
      );
      assert(
        byType.memories.some((memory) => memory.id === id),
        'filters.types did not match a note',
      );
      assert(
        byType.memories.every((memory) => memory.type === 'note'),
        'filters.types matched other types',
      );
      // The contract does not say how a pattern matches: a wildcard one (`*word*`) or a plain substring must find it.
      const counts: number[] = [];
      for (const pattern of [`*${patternWord}*`, patternWord]) {
        const response = await env.post('/memories/bulk-forget', { filters: { pattern }, dryRun: true, scope });
        const byPattern = expectShape(BulkForgetDryRunShape, expectSuccess(response), 'dry-run data');
        if (byPattern.count === 1 && byPattern.memories[0]?.id === id) return;
        counts.push(byPattern.count);
      }
      assert(
        false,
        `filters.pattern "*${patternWord}*" and "${patternWord}" matched ${counts.join(' and ')} memories, not the one`,
      );
    });

    await t.check(
      'bulk-older-than',
      'bulk-forget filters.olderThanDays 1 matches none of the memories written seconds ago',
      BULK,
      async () => {
        need(added, 'memories/add');
        const response = await env.post('/memories/bulk-forget', {
          filters: { olderThanDays: 1 },
          dryRun: true,
          scope,
        });
        const data = expectShape(BulkForgetDryRunShape, expectSuccess(response), 'dry-run data');
        assert(data.count === 0, `olderThanDays 1 matched ${data.count} memories of this run`);
      },
    );

    await t.check('bulk-needs-filter', 'bulk-forget with no filter and no all is refused (400)', BULK, async () => {
      expectError(await env.post('/memories/bulk-forget', { filters: {}, dryRun: true, scope }), { status: 400 });
    });

    await t.check('bulk-all-exclusive', 'bulk-forget refuses all combined with other filters (400)', BULK, async () => {
      expectError(
        await env.post('/memories/bulk-forget', { all: true, filters: { tags: [bulkWord] }, dryRun: true, scope }),
        {
          status: 400,
        },
      );
    });

    await t.check(
      'vacuum',
      'memories/vacuum answers purged and message, and purges the soft-deleted memories',
      `${VACUUM}; States and transitions › Memory`,
      async () => {
        need(bulkIds, 'bulk-forget');
        const data = expectShape(
          VacuumShape,
          expectSuccess(await env.post('/memories/vacuum', { scope })),
          'vacuum data',
        );
        assert(data.purged >= 2, `purged ${data.purged}, at least the 2 bulk-forgotten memories were soft-deleted`);
        const again = expectShape(
          VacuumShape,
          expectSuccess(await env.post('/memories/vacuum', { scope })),
          'vacuum data',
        );
        assert(again.purged === 0, `a second vacuum purged ${again.purged}`);
      },
    );

    const consolidated = await t.check(
      'consolidate-dry-run',
      'memories/consolidate dryRun answers runId, message, run (consolidation run), winnerMemoryIds[], supersededMemoryIds[]',
      `${CONSOLIDATE}; Resources › Consolidation run`,
      async () => {
        const response = await env.post('/memories/consolidate', {
          dryRun: true,
          types: ['fact', 'decision'],
          model: 'conformance-model',
          scope,
        });
        if (response.status === 403) {
          expectError(response, { status: 403, code: 'MEMORY_CONSOLIDATION_DISABLED' });
          throw new CheckSkipped('consolidation is disabled on this server (403 MEMORY_CONSOLIDATION_DISABLED)');
        }
        const data = expectShape(ConsolidateShape, expectSuccess(response), 'consolidate data');
        assert(data.run.id === data.runId, `run.id ${data.run.id} differs from runId ${data.runId}`);
        assert(
          data.run.model === 'conformance-model',
          `run.model is ${JSON.stringify(data.run.model)}, sent conformance-model`,
        );
        return true;
      },
    );

    await t.check('consolidate', 'memories/consolidate with dryRun false records a run', CONSOLIDATE, async () => {
      need(consolidated, 'the consolidation dry run');
      const response = await env.post('/memories/consolidate', { dryRun: false, includeGlobal: true, scope });
      expectShape(ConsolidateShape, expectSuccess(response), 'consolidate data');
    });

    await t.check(
      'findable',
      'a stored memory is found by memories/search',
      'Endpoints › POST /memories/search',
      async () => {
        const id = need(full, 'memories/add');
        await eventually(async () => {
          const data = expectSuccess(await env.post('/memories/search', { query: `${word} checks`, scope })) as {
            memories: { id: string }[];
          };
          assert(
            data.memories.some((memory) => memory.id === id),
            'the memory is not found',
          );
        });
      },
    );
  },
};
