import { type InProcessServer, startInProcessServer } from '../in-process-server.js';
import { ProgressBar } from '../progress.js';
import { asJson, type Figures, Scoreboard } from '../score.js';
import { waitForIndex } from '../wait-for-index.js';
import type { QuestionKind } from './facts.js';
import { generateLongCorpus, type LongUser } from './generate.js';
import { PlainBm25 } from './plain-bm25.js';

/**
 * How the users of a size are stored: `tenant`, a tenant each (as the LoCoMo run stores a conversation); `shared`,
 * every user in one tenant, narrowed by `userId` (one app's memory store: the index holds every user's messages).
 */
export type Layout = 'tenant' | 'shared';

/** What `pnpm bench:retrieval --corpus long` runs. */
export interface LongCorpusOptions {
  sizes: readonly number[];
  users: number;
  seed: number;
  layouts: readonly Layout[];
  ks: readonly number[];
  strategy: 'lexical' | 'hybrid';
  /** The route that ranks: `context` (context/get, as an app asks; the default) or `search` (memories/search). */
  route?: 'context' | 'search';
  /** The server's embedding model (its default when not given). */
  embeddingModel: string | undefined;
  json: boolean;
}

const KINDS: readonly QuestionKind[] = ['direct', 'reworded', 'rare'];
/** Adds in flight at once while importing (the server commits them in groups). */
const CONCURRENCY = 8;

interface ServedMemory {
  id: string;
}

/** One size and layout: the baseline's and the strategy's scores, and the strategy's context/get latencies. */
interface Run {
  size: number;
  layout: Layout;
  messages: number;
  medianLength: number;
  baseline: Scoreboard;
  service: Scoreboard;
  latenciesMs: number[];
}

async function inBatches<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += CONCURRENCY)
    await Promise.all(items.slice(start, start + CONCURRENCY).map(work));
}

function tenantOf(layout: Layout, size: number, userId: string): string {
  return layout === 'tenant' ? `long-${size}-${userId}` : `long-${size}-shared`;
}

/** Imports every message into the server (with `occurredAt`) and the baseline; returns the server's id -> key map. */
async function ingest(
  server: InProcessServer,
  baseline: PlainBm25,
  users: readonly LongUser[],
  { layout, size, progress }: { layout: Layout; size: number; progress: ProgressBar },
): Promise<Map<string, string>> {
  const keyOf = new Map<string, string>();
  for (const user of users) {
    const tenantId = tenantOf(layout, size, user.userId);
    await inBatches(user.messages, async (message) => {
      const added = await server.call<{ id: string }>('POST', '/memories/add', {
        content: message.content,
        occurredAt: message.occurredAt,
        metadata: { key: message.key, role: message.role },
        scope: { tenantId, userId: user.userId },
      });
      keyOf.set(added.id, message.key);
      progress.tick(`${layout} ${size} ingest`);
    });
    const rows = user.messages.map((message) => ({ group: user.userId, key: message.key, content: message.content }));
    await baseline.add(tenantId, rows);
  }
  return keyOf;
}

async function measure(
  server: InProcessServer,
  options: LongCorpusOptions,
  layout: Layout,
  size: number,
): Promise<Run> {
  const users = generateLongCorpus({ seed: options.seed, users: options.users, messagesPerUser: size });
  const progress = new ProgressBar(users.reduce((sum, user) => sum + user.messages.length + user.questions.length, 0));
  const baseline = await PlainBm25.create();
  const keyOf = await ingest(server, baseline, users, { layout, size, progress });
  const maxK = Math.max(...options.ks);
  const run: Run = {
    size,
    layout,
    messages: users.reduce((sum, user) => sum + user.messages.length, 0),
    medianLength: median(users.flatMap((user) => user.messages.map((message) => message.content.length))),
    baseline: new Scoreboard(options.ks),
    service: new Scoreboard(options.ks),
    latenciesMs: [],
  };
  for (const user of users) {
    const tenantId = tenantOf(layout, size, user.userId);
    // Lexical needs only the FTS index, written with each add; waiting for the indexer (vectors, graph) anyway keeps
    // its background work from inflating the reported latencies. The user's scope: the queue counts what it sees.
    await waitForIndex(server, tenantId, { userId: user.userId });
    for (const item of user.questions) {
      const category = KINDS.indexOf(item.kind) + 1;
      run.baseline.add(category, item.evidence, await baseline.rank(tenantId, user.userId, item.question, maxK));
      const started = performance.now();
      const scope = { tenantId, userId: user.userId };
      const question = { query: item.question, strategy: options.strategy, limit: maxK, scope };
      // `search` ranks with memories/search: the retrieval alone, without what context/get does after it.
      const bundle =
        options.route === 'search'
          ? await server.call<{ memories: ServedMemory[] }>('POST', '/memories/search', question)
          : await server.call<{ memories: ServedMemory[] }>('POST', '/context/get', {
              ...question,
              includeRules: false,
              includeSkillFiles: false,
            });
      run.latenciesMs.push(performance.now() - started);
      run.service.add(
        category,
        item.evidence,
        bundle.memories.map((memory) => keyOf.get(memory.id) ?? memory.id),
      );
      progress.tick(`${layout} ${size} ${options.strategy}`);
    }
  }
  await baseline.close();
  return run;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;
}

function cells(figures: Figures, ks: readonly number[]): string[] {
  return [...ks.map((k) => (figures.recall[k] ?? 0).toFixed(3)), figures.mrr.toFixed(3)];
}

/** Prints one table per run: BM25 and the strategy side by side, per question kind and overall. */
function printRun(run: Run, options: LongCorpusOptions): void {
  const { ks, strategy } = options;
  const metrics = [...ks.map((k) => `R@${k}`), 'MRR'];
  const header = ['kind'.padEnd(10), 'n'.padStart(4), ...metrics.map((m) => `bm25 ${m}`.padStart(10))];
  header.push(...metrics.map((metric) => `${strategy.slice(0, 4)} ${metric}`.padStart(10)), 'Δ R@10'.padStart(8));
  const lines = [
    `layout ${run.layout} | ${options.users} users x ~${run.size} messages (${run.messages} messages, median ` +
      `${run.medianLength} characters) | ${strategy} via ${options.route === 'search' ? 'memories/search' : 'context/get'}: p50 ${percentile(run.latenciesMs, 0.5).toFixed(1)} ms, ` +
      `p95 ${percentile(run.latenciesMs, 0.95).toFixed(1)} ms`,
    header.join(' '),
  ];
  for (const key of [...KINDS.map((_, index) => String(index + 1)), 'overall']) {
    const base = run.baseline.figures(key);
    const ours = run.service.figures(key);
    if (base.n === 0) continue;
    const label = key === 'overall' ? 'overall' : (KINDS[Number(key) - 1] ?? key);
    const delta = (ours.recall[10] ?? 0) - (base.recall[10] ?? 0);
    lines.push(
      [
        label.padEnd(10),
        String(base.n).padStart(4),
        ...cells(base, ks).map((cell) => cell.padStart(10)),
        ...cells(ours, ks).map((cell) => cell.padStart(10)),
        `${delta >= 0 ? '+' : ''}${delta.toFixed(3)}`.padStart(8),
      ].join(' '),
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

/**
 * `pnpm bench:retrieval --corpus long`: the generated long conversations (`generate.ts`, nothing downloaded), each
 * size and layout imported into the in-process server and into a plain FTS5 BM25 baseline (`plain-bm25.ts`); every
 * question asked of both, the strategy through `context/get` as an app asks it. Prints recall@k and MRR side by side.
 */
export async function runLongCorpus(options: LongCorpusOptions): Promise<void> {
  const server = await startInProcessServer(
    options.embeddingModel === undefined ? {} : { embeddingModel: options.embeddingModel },
  );
  const runs: Run[] = [];
  for (const layout of options.layouts)
    for (const size of options.sizes) runs.push(await measure(server, options, layout, size));
  const embeddingModel = server.embeddingModel;
  await server.close();
  process.stdout.write(
    `long generated conversations | seed ${options.seed} | strategy ${options.strategy} | embedding model ` +
      `${embeddingModel}\n\n`,
  );
  for (const run of runs) printRun(run, options);
  if (options.json)
    for (const run of runs)
      process.stdout.write(
        `${JSON.stringify({
          corpus: 'long',
          layout: run.layout,
          size: run.size,
          messages: run.messages,
          strategy: options.strategy,
          bm25: asJson(run.baseline.figures('overall')),
          [options.strategy]: asJson(run.service.figures('overall')),
          latencyMs: { p50: percentile(run.latenciesMs, 0.5), p95: percentile(run.latenciesMs, 0.95) },
        })}\n`,
      );
}
