import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type CaptureCounts, emptyCaptureCounts } from './capture/capture-counts.js';
import { printComparison } from './capture/print-comparison.js';
import { replayCapture } from './capture/replay-capture.js';
import { startInProcessServer } from './in-process-server.js';
import { type Conversation, loadLocomo } from './locomo.js';
import { type Layout, runLongCorpus } from './long-corpus/run.js';
import { ProgressBar } from './progress.js';
import { printTable } from './report.js';
import { asJson, CATEGORY_NAMES, Scoreboard } from './score.js';
import { sessionDateToIso } from './session-date.js';
import { type BenchStrategy, type GraphFacts, promoteGraph, rank, STRATEGIES } from './strategies.js';
import { waitForIndex } from './wait-for-index.js';

/**
 * `pnpm bench:retrieval`: retrieval quality on LoCoMo-format data with the real server code in-process (services +
 * Hono app, `app.request`, no port), one tenant per conversation, scored as `../shared/bench/README.md` says.
 * `--capture` also replays each conversation through the AI middleware's `capture: 'turns'` into a second tenant
 * and scores what it stored the same way, beside the direct import (`capture/`; `--capture-captions` adds the image
 * captions to the replayed messages). `--corpus long` runs the generated long conversations instead (`long-corpus/`:
 * `--sizes`, `--users`, `--seed`, `--layouts`; `--route search` ranks with memories/search instead of context/get), lexical
 * or hybrid beside a plain FTS5 BM25 baseline.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    data: { type: 'string', default: path.resolve(here, '../../../shared/bench/locomo-dev.json') },
    strategy: { type: 'string' },
    k: { type: 'string', default: '5,10,20' },
    json: { type: 'boolean', default: false },
    'embedding-model': { type: 'string' },
    capture: { type: 'boolean', default: false },
    'capture-captions': { type: 'boolean', default: false },
    corpus: { type: 'string', default: 'locomo' },
    sizes: { type: 'string', default: '250,1000' },
    users: { type: 'string', default: '5' },
    seed: { type: 'string', default: '1' },
    layouts: { type: 'string', default: 'tenant,shared' },
    route: { type: 'string', default: 'context' },
  },
});
// Default: hybrid on LoCoMo; lexical on the long corpus (its question is lexical against plain BM25).
const strategy = (values.strategy ?? (values.corpus === 'long' ? 'lexical' : 'hybrid')) as BenchStrategy;
if (!STRATEGIES.includes(strategy)) throw new Error(`--strategy must be one of ${STRATEGIES.join(', ')}`);
if (values.capture && strategy === 'hybrid_graph')
  throw new Error('--capture compares lexical or hybrid, not hybrid_graph');
const ks = values.k
  .split(',')
  .map(Number)
  .filter((k) => Number.isInteger(k) && k > 0 && k <= 50)
  .sort((a, b) => a - b);
if (ks.length === 0) throw new Error('--k must list integers 1..50, e.g. 5,10,20');
const maxK = ks.at(-1) ?? 20;

if (values.corpus === 'long') {
  if (strategy === 'hybrid_graph' || strategy === 'default')
    throw new Error(`--corpus long compares lexical or hybrid, not ${strategy}`);
  const layouts = values.layouts
    .split(',')
    .filter((layout): layout is Layout => layout === 'tenant' || layout === 'shared');
  await runLongCorpus({
    sizes: values.sizes
      .split(',')
      .map(Number)
      .filter((size) => Number.isInteger(size) && size > 0),
    users: Number(values.users),
    seed: Number(values.seed),
    layouts,
    ks,
    // The vectors are not used by a lexical run: the hashing model keeps the background indexer off the CPU.
    strategy,
    route: values.route === 'search' ? 'search' : 'context',
    embeddingModel: values['embedding-model'] ?? (strategy === 'lexical' ? 'local/hash-384' : undefined),
    json: values.json,
  });
  process.exit(0);
} else if (values.corpus !== 'locomo') throw new Error('--corpus must be locomo or long');

const { conversations, evidence } = loadLocomo(path.resolve(values.data));
const server = await startInProcessServer(
  values['embedding-model'] === undefined ? {} : { embeddingModel: values['embedding-model'] },
);
const started = performance.now();
const board = new Scoreboard(ks);
const graph: GraphFacts = { canaryTenants: 0, tenants: 0, blockedReasonCodes: [], expandedServed: 0 };
let semanticFallbacks = 0;
/** How many questions each strategy answered (after fallbacks), at the largest k: `default` reports it. */
const answeredBy: Record<string, number> = {};
// With --capture: the replay's tenants, their scores and what capture did.
const capture:
  | {
      board: Scoreboard;
      counts: CaptureCounts;
      ms: number;
      semanticFallbacks: number;
      answeredBy: Record<string, number>;
    }
  | undefined = values.capture
  ? { board: new Scoreboard(ks), counts: emptyCaptureCounts(), ms: 0, semanticFallbacks: 0, answeredBy: {} }
  : undefined;
const totalSteps =
  conversations.reduce((sum, conversation) => sum + conversation.turns.length + conversation.items.length, 0) *
  (capture === undefined ? 1 : 2);
const progress = new ProgressBar(totalSteps);

async function ingest(conversation: Conversation): Promise<Map<string, string>> {
  const diaIdOf = new Map<string, string>();
  for (const turn of conversation.turns) {
    const occurredAt = sessionDateToIso(turn.sessionDate);
    const added = await server.call<{ id: string }>('POST', '/memories/add', {
      content: turn.content,
      metadata: { diaId: turn.diaId, sessionDate: turn.sessionDate },
      // When the turn was said: the session's date, so ranking sees a 2023 conversation as three years old.
      ...(occurredAt === null ? {} : { occurredAt }),
      scope: { tenantId: conversation.sampleId },
    });
    diaIdOf.set(added.id, turn.diaId);
    progress.tick(`${conversation.sampleId} ingest`);
  }
  return diaIdOf;
}

/** Ranks each question of a conversation in a tenant and scores it on `target`; returns the semantic fallbacks. */
async function scoreItems(
  conversation: Conversation,
  tenantId: string,
  diaIdOf: ReadonlyMap<string, string>,
  target: Scoreboard,
  answered: Record<string, number>,
): Promise<number> {
  let fallbacks = 0;
  for (const item of conversation.items) {
    // hybrid_graph's list depends on the budget k (its graph share); the other strategies rank once.
    const budgets = strategy === 'hybrid_graph' ? ks : [maxK];
    const lists = new Map<number, string[]>();
    for (const k of budgets) {
      const ranking = await rank(server, strategy, tenantId, item.question, k);
      if (ranking.semanticFallback && k === maxK) fallbacks += 1;
      if (k === maxK) answered[ranking.applied] = (answered[ranking.applied] ?? 0) + 1;
      graph.expandedServed += ranking.expanded;
      lists.set(
        k,
        ranking.ids.map((id) => diaIdOf.get(id) ?? id),
      );
    }
    const longest = lists.get(maxK) ?? [];
    target.addPerK(item.category, item.evidence, (k) => lists.get(k) ?? longest, longest);
    progress.tick(`${conversation.sampleId} ${strategy}`);
  }
  return fallbacks;
}

for (const conversation of conversations) {
  const diaIdOf = await ingest(conversation);
  const tenantId = conversation.sampleId;
  // Lexical ranks FTS5 alone, which a write updates before it answers; the others need the indexer done.
  if (strategy !== 'lexical') await waitForIndex(server, tenantId);
  if (strategy === 'hybrid_graph') {
    graph.tenants += 1;
    // Shadow samples for the rollout gate: lexical context calls with the graph in shadow (answers unscored).
    const outcome = await promoteGraph(server, tenantId, async () => {
      for (const item of conversation.items.slice(0, 45))
        await server.call('POST', '/context/get', { query: item.question, scope: { tenantId } });
    });
    if (outcome.canary) graph.canaryTenants += 1;
    graph.blockedReasonCodes.push(...outcome.reasonCodes.filter((code) => !graph.blockedReasonCodes.includes(code)));
  }
  semanticFallbacks += await scoreItems(conversation, tenantId, diaIdOf, board, answeredBy);
  if (capture !== undefined) {
    const captureStarted = performance.now();
    const captureTenant = `${tenantId}-capture`;
    const capturedDiaIdOf = await replayCapture({
      server,
      conversation,
      tenantId: captureTenant,
      captions: values['capture-captions'],
      counts: capture.counts,
      onTurn: () => progress.tick(`${conversation.sampleId} capture`),
    });
    if (strategy !== 'lexical') await waitForIndex(server, captureTenant);
    capture.semanticFallbacks += await scoreItems(
      conversation,
      captureTenant,
      capturedDiaIdOf,
      capture.board,
      capture.answeredBy,
    );
    capture.ms += performance.now() - captureStarted;
  }
}
const seconds = Math.round((performance.now() - started - (capture?.ms ?? 0)) / 100) / 10;
await server.close();

const overall = board.figures('overall');
const memories = conversations.reduce((sum, conversation) => sum + conversation.turns.length, 0);
printTable({
  strategy,
  embeddingModel: server.embeddingModel,
  ks,
  board,
  memories,
  seconds,
  evidence,
  semanticFallbacks,
  graph,
  applied: answeredBy,
});
if (capture !== undefined) {
  printTable({
    strategy: `${strategy} (capture)`,
    embeddingModel: server.embeddingModel,
    ks,
    board: capture.board,
    memories: capture.counts.stored,
    seconds: Math.round(capture.ms / 100) / 10,
    evidence,
    semanticFallbacks: capture.semanticFallbacks,
    graph,
    applied: capture.answeredBy,
  });
  printComparison({
    strategy,
    ks,
    imported: board,
    captured: capture.board,
    importedMemories: memories,
    counts: capture.counts,
  });
}
if (values.json) {
  const byCategoryOf = (scores: Scoreboard) =>
    Object.fromEntries(
      scores
        .categories()
        .map((category) => [
          String(category),
          { name: CATEGORY_NAMES[category] ?? `category-${category}`, ...asJson(scores.figures(String(category))) },
        ]),
    );
  const line = {
    strategy,
    embeddingModel: server.embeddingModel,
    memories,
    queries: overall.n,
    seconds,
    overall: asJson(overall),
    byCategory: byCategoryOf(board),
    semanticFallbacks,
    evidence,
    ...(strategy === 'hybrid_graph' ? { graph } : {}),
    ...(strategy === 'default' ? { answeredBy } : {}),
    ...(capture === undefined
      ? {}
      : {
          capture: {
            ...capture.counts,
            seconds: Math.round(capture.ms / 100) / 10,
            overall: asJson(capture.board.figures('overall')),
            byCategory: byCategoryOf(capture.board),
            semanticFallbacks: capture.semanticFallbacks,
            captions: values['capture-captions'],
          },
        }),
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}
