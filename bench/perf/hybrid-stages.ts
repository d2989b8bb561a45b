import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SENTENCE_ENCODER_MODEL_ID } from '../../packages/server/src/embedding-models/default-model.js';
import { createBuiltInRegistry } from '../../packages/server/src/embeddings/default-registry.js';
import { createHashEmbeddingModel } from '../../packages/server/src/embeddings/hash-embedding.js';
import type { EmbeddingModelDefinition } from '../../packages/server/src/embeddings/model-definition.js';
import { createSentenceEncoderModel } from '../../packages/server/src/embeddings/sentence-encoder.js';
import type { RankedCandidate } from '../../packages/server/src/retrieval/candidate-filter.js';
import { withConversationWindows } from '../../packages/server/src/retrieval/conversation-window.js';
import { queryTerms } from '../../packages/server/src/retrieval/fts-query.js';
import { fuseRankings } from '../../packages/server/src/retrieval/hybrid.js';
import { lexicalSearch } from '../../packages/server/src/retrieval/lexical.js';
import { withRelevance } from '../../packages/server/src/retrieval/relevance.js';
import { retrieve } from '../../packages/server/src/retrieval/retrieve.js';
import { closestSimilarities, similarities, vectorCandidates } from '../../packages/server/src/retrieval/semantic.js';
import { queryTexts, vectorLists } from '../../packages/server/src/retrieval/semantic-side.js';
import { commonTerms } from '../../packages/server/src/retrieval/term-frequency.js';
import { Database } from '../../packages/server/src/store/database.js';
import { sharedDatabasePool } from '../../packages/server/src/store/database-pool.js';
import { pendingIndexJobs } from '../../packages/server/src/store/index-jobs.js';
import { vectorBlob } from '../../packages/server/src/store/vector-tables.js';
import { TenantDatabase } from '../../packages/server/src/tenancy/tenant-database.js';
import { startContextServer } from './context-in-process.js';
import { seedEmbeddedWorkspace } from './embedded-workspace.js';
import { hashWithEncoderCost } from './encoder-cost-model.js';
import { generateQueries } from './seed-data.js';
import { StageTimings } from './stage-timings.js';
import { StatementTimings } from './statement-timings.js';

/**
 * Where a hybrid `context/get` spends its milliseconds, stage by stage, in-process (no HTTP): each stage of
 * `retrieve()` timed on its own in the order the hybrid path runs it (lexical list, query embedding through the
 * inference pool and its batch window, each `vector_top_k` list with its scope join, conversation windows with their
 * relatedness check, fusion, the similarity and relevance of the served candidates, the `indexPending` count), then
 * `retrieve()` whole. A benchmark, not a test.
 *
 * pnpm exec tsx bench/perf/hybrid-stages.ts --memories 100000 --model local/hash-384 --data-cache bench/.cache
 */
const { values } = parseArgs({
  options: {
    memories: { type: 'string', default: '100000' },
    /** The store's and the query's embedding model. */
    model: { type: 'string', default: 'local/use-lite-512' },
    queries: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '1' },
    /** A folder keeping the seeded and embedded database between runs (`workspace-<n>-<model>.db`). */
    'data-cache': { type: 'string', default: '' },
    /** An existing workspace database to read instead (copied first). */
    database: { type: 'string', default: '' },
    /**
     * With a `local/hash-<n>` store: every query embedding also runs the default sentence encoder on the query's texts
     * (`hashWithEncoderCost`), so the query path pays the default encoder's cost on a store built in minutes.
     */
    'encoder-cost': { type: 'boolean', default: false },
    /** Leave out the in-process `context/get` rows. */
    'no-context': { type: 'boolean', default: false },
    /** Also print what each statement of the vector lists and the conversation windows cost (per query). */
    statements: { type: 'boolean', default: false },
  },
});
const memories = Number(values.memories);
const modelId = values.model;
const hashDimensions = /^local\/hash-(\d+)$/.exec(modelId)?.[1];
if (values['encoder-cost'] && hashDimensions === undefined)
  throw new Error('--encoder-cost needs a local/hash-<n> model');
/** The query's model as the bench registers it (again, to make the server forget its query vectors). */
const queryModel: EmbeddingModelDefinition = values['encoder-cost']
  ? hashWithEncoderCost(Number(hashDimensions))
  : builtInDefinition(modelId);

function builtInDefinition(id: string): EmbeddingModelDefinition {
  const descriptor = createBuiltInRegistry().describe(id);
  if (descriptor === undefined) throw new Error(`${id} is not a built-in model`);
  const model =
    id === SENTENCE_ENCODER_MODEL_ID ? createSentenceEncoderModel() : createHashEmbeddingModel(descriptor.dimensions);
  return { ...descriptor, model };
}

async function workspaceFile(folder: string): Promise<string> {
  const file = path.join(folder, 'workspace.db');
  if (values.database !== '') {
    copyFileSync(path.resolve(values.database), file);
    return file;
  }
  const cacheName = `workspace-${memories}-${modelId.replace(/[^a-z0-9]+/gi, '-')}.db`;
  const cached = values['data-cache'] === '' ? null : path.resolve(values['data-cache'], cacheName);
  if (cached !== null && existsSync(cached)) {
    copyFileSync(cached, file);
    return file;
  }
  process.stderr.write(`seeding ${memories} memories and embedding them with ${modelId}...\n`);
  const built = await seedEmbeddedWorkspace(`file:${file}`, memories, modelId, (done) => {
    if (done % 5120 === 0) process.stderr.write(`  ${done}\n`);
  });
  process.stderr.write(
    `  seeded in ${built.seedSeconds.toFixed(1)} s, vectors in ${built.vectorSeconds.toFixed(1)} s\n`,
  );
  if (cached !== null) {
    mkdirSync(path.dirname(cached), { recursive: true });
    copyFileSync(file, `${cached}.partial`);
    renameSync(`${cached}.partial`, cached);
  }
  return file;
}

const folder = mkdtempSync(path.join(tmpdir(), 'hybrid-stages-'));
try {
  const file = await workspaceFile(folder);
  const database = await Database.open({ url: `file:${file}` });
  // The planner's statistics, as the server takes them when it opens a tenant (plans differ without them).
  await database.refreshStatisticsOnOpen('memories');
  const tenant = new TenantDatabase('bench', null, database);
  const makeRegistry = () => {
    const made = createBuiltInRegistry();
    made.register(queryModel);
    return made;
  };
  const registry = makeRegistry();
  const descriptor = registry.describe(modelId);
  const table = await tenant.vectorTables.find(modelId);
  if (descriptor === undefined || table === undefined) throw new Error(`no vectors of ${modelId} in the database`);
  const scope = { tenantId: null, userId: null, projectId: null };
  const queries = generateQueries(Number(values.queries));
  const timings = new StageTimings();
  const statements = values.statements ? new StatementTimings(sharedDatabasePool()) : null;
  const context = values['no-context'] ? null : await startContextServer(folder, modelId, [queryModel]);
  const depth = 200;
  // context/get asks `retrieve()` for 4 candidates per result, at least 20: 20 for its default limit of 5.
  const limit = 20;
  const hybridOnce = async (query: string, record: boolean) => {
    const stages = record ? timings : new StageTimings();
    const now = new Date();
    const filters = { scope, now, excludeLayer: 'rule' };
    const lexical = await stages.time('lexical list (FTS5 BM25, depth 200)', () =>
      lexicalSearch(tenant, { ...filters, query, limit: depth, recencyFallback: true }),
    );
    const texts = queryTexts(query, descriptor.local);
    const embedded = await stages.time(`query embedding (${texts.length} texts, pool + window)`, () =>
      registry.embed(modelId, texts),
    );
    const lists: RankedCandidate[][] = [];
    for (const [index, vector] of embedded.embeddings.entries())
      lists.push(
        await stages.time(`vector_top_k + scope join, list ${index + 1}`, () =>
          vectorCandidates(database, table, vector, {
            ...filters,
            limit: depth,
            minSimilarity: descriptor.minSimilarity,
          }),
        ),
      );
    // The index search alone (no join, no exact distance), at the depth one list asks (250) and at twice it: what one
    // over-fetched search for both query vectors would cost.
    for (const neighbours of [250, 500])
      await stages.time(`vector_top_k alone, ${neighbours} neighbours`, () =>
        database.all(`SELECT id FROM vector_top_k('${table.indexName}', vector32(?), ?)`, [
          vectorBlob(embedded.embeddings[0] as Float32Array),
          neighbours,
        ]),
      );
    if (statements !== null) statements.recording = record;
    await stages.time('vector lists, all at once, rows read once', () =>
      vectorLists(
        database,
        { ok: true, modelId, table, vectors: embedded.embeddings, minSimilarity: descriptor.minSimilarity },
        { ...filters, limit: depth },
      ),
    );
    const hits = lexical.candidates.filter((candidate) => candidate.source !== 'recency');
    const windowStarted = performance.now();
    let relatedMs = 0;
    const related = async (seqs: readonly number[]) => {
      const started = performance.now();
      const scores = await similarities(database, table, embedded.embeddings[0] as Float32Array, seqs);
      relatedMs += performance.now() - started;
      return new Set([...scores].filter(([, score]) => score >= descriptor.minSimilarity).map(([seq]) => seq));
    };
    const windows = await withConversationWindows(database, hits, lexical.query, filters, related);
    stages.add('conversation windows (without relatedness)', performance.now() - windowStarted - relatedMs);
    stages.add('relatedness of unmatched window members', relatedMs);
    if (statements !== null) statements.recording = false;
    const terms = queryTerms(query);
    const fused = await stages.time('common terms + fusion + credits', async () =>
      fuseRankings(windows, lists, now, { common: await commonTerms(tenant.termCounts, terms), terms }),
    );
    const ranked = fused.slice(0, limit);
    const similarity = await stages.time('similarity of served candidates', () =>
      closestSimilarities(
        database,
        table,
        embedded.embeddings,
        ranked.map(({ row }) => row.seq),
      ),
    );
    await stages.time('relevance of served candidates', () =>
      withRelevance(tenant, query, ranked, {
        lexicalHits: new Set(hits.map(({ row }) => row.seq)),
        semantic: { similarities: similarity, minSimilarity: descriptor.minSimilarity },
      }),
    );
    await stages.time('indexPending count (context/get trace)', () => pendingIndexJobs(database, scope, 10_000));
    const hybridRequest = {
      query,
      scope,
      limit,
      strategy: 'hybrid' as const,
      excludeLayer: 'rule',
      recencyFallback: true,
      embeddingModel: modelId,
    };
    // A registry of its own: a question this server has not embedded before (no query vector to reuse).
    await stages.time('retrieve() whole (hybrid, question not seen before)', () =>
      retrieve(tenant, { ...hybridRequest, embeddings: makeRegistry() }),
    );
    await retrieve(tenant, { ...hybridRequest, embeddings: registry });
    await stages.time('retrieve() whole (hybrid, question asked again)', () =>
      retrieve(tenant, { ...hybridRequest, embeddings: registry }),
    );
    await stages.time('retrieve() whole (lexical)', () =>
      retrieve(tenant, { ...hybridRequest, strategy: 'lexical', embeddings: registry }),
    );
    if (context === null) return;
    // The server forgets its query vectors when the model is registered again: the question is new to it.
    context.reregister(queryModel);
    await stages.time('context/get hybrid in-process (question not seen before)', () =>
      context.contextGet(query, 'hybrid'),
    );
    await stages.time('context/get hybrid in-process (question asked again)', () =>
      context.contextGet(query, 'hybrid'),
    );
    await stages.time('context/get lexical in-process', () => context.contextGet(query, 'lexical'));
  };
  // Warm-up: the model's load in its worker, the statement caches, the term counts.
  for (const query of queries.slice(0, 10)) await hybridOnce(query, false);
  for (let round = 0; round < Number(values.rounds); round++)
    for (const query of queries) await hybridOnce(query, true);
  // A narrow scope: the same memories owned by 100 users (this copy of the workspace only), one user asking. The
  // index's 200 nearest hold about 2 of theirs, so the user's scope (about 1% of the tenant) is ranked exactly.
  await database.run("UPDATE memories SET user_id = 'user-' || (seq % 100)");
  const narrow = { scope: { tenantId: null, userId: 'user-7', projectId: null }, excludeLayer: 'rule' };
  const narrowList = async (query: string) => {
    const { embeddings: vectors } = await registry.embed(modelId, queryTexts(query, descriptor.local));
    const embedding = { ok: true as const, modelId, table, vectors, minSimilarity: descriptor.minSimilarity };
    return () => vectorLists(database, embedding, { ...narrow, now: new Date(), limit: depth });
  };
  for (const query of queries.slice(0, 10)) await (await narrowList(query))();
  for (const query of queries)
    await timings.time('vector lists, one user of 100 (~1,000 memories, ranked exactly)', await narrowList(query));
  process.stdout.write(`${memories} memories, ${modelId}, ${queries.length} queries x ${values.rounds}\n`);
  process.stdout.write(`${timings.table()}\n`);
  if (statements !== null) {
    process.stdout.write('\nStatements of the vector lists (all at once) and the conversation windows, per query:\n');
    statements.print(queries.length * Number(values.rounds), 12);
  }
  await context?.close();
  await database.close();
} finally {
  rmSync(folder, { recursive: true, force: true });
}
