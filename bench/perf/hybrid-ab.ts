import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Database } from '../../packages/server/src/store/database.js';
import type { HybridTree } from './hybrid-tree.js';
import { generateQueries } from './seed-data.js';
import { StageTimings } from './stage-timings.js';

/**
 * Before and after a change, in one process and under the same load: this checkout's server code and another
 * checkout's (`--before <repository root>`, e.g. a copy of the tree without the change) each read its own copy of the
 * same workspace database, and every query is timed on both, in A-B-B-A order, so a machine shared with other work
 * slows both alike. Rows: `retrieve()` and in-process `context/get`, hybrid (each question new to the server) and
 * lexical. A benchmark, not a test.
 *
 * pnpm exec tsx bench/perf/hybrid-ab.ts --before ../before --database <workspace.db> --model local/hash-384
 *
 * `--owners <n>` gives every memory of the copies but each n-th to one of n-1 users; the n-th stay shared, so the
 * shared scope both trees query is a narrow scope of a larger tenant (one user's share of an app's memory store).
 */
const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    database: { type: 'string' },
    model: { type: 'string', default: 'local/hash-384' },
    'encoder-cost': { type: 'boolean', default: false },
    queries: { type: 'string', default: '100' },
    owners: { type: 'string', default: '1' },
    /** The strategies measured (`lexical` alone for a workspace seeded without vectors). */
    strategies: { type: 'string', default: 'hybrid,lexical' },
    /**
     * The workspace the before side reads, when it differs from `--database` (a storage setting compared with the
     * same code: `--before` this checkout, `--before-database` a copy of the workspace made another way).
     */
    'before-database': { type: 'string' },
  },
});
if (values.before === undefined || values.database === undefined) throw new Error('--before and --database are needed');

/** Every memory but each n-th to one of n-1 users (planner statistics taken again, as the server would). */
async function shareOnlyEvery(file: string, owners: number): Promise<void> {
  const database = await Database.open({ url: `file:${file}` });
  await database.run("UPDATE memories SET user_id = CASE WHEN seq % ? = 0 THEN NULL ELSE 'user-' || (seq % ?) END", [
    owners,
    owners,
  ]);
  await database.run('ANALYZE');
  await database.close();
}

const roots = { before: path.resolve(values.before), after: path.resolve(import.meta.dirname, '../..') };
const folders: string[] = [];
const trees: Record<'before' | 'after', HybridTree> = {} as never;
for (const side of ['before', 'after'] as const) {
  const folder = mkdtempSync(path.join(tmpdir(), `hybrid-ab-${side}-`));
  folders.push(folder);
  const source = side === 'before' ? (values['before-database'] ?? values.database) : values.database;
  copyFileSync(path.resolve(source), path.join(folder, 'workspace.db'));
  if (Number(values.owners) > 1) await shareOnlyEvery(path.join(folder, 'workspace.db'), Number(values.owners));
  const module = (await import(pathToFileURL(path.join(roots[side], 'bench/perf/hybrid-tree.ts')).href)) as {
    openHybridTree: (dataDir: string, modelId: string, encoderCost: boolean) => Promise<HybridTree>;
  };
  trees[side] = await module.openHybridTree(folder, values.model, values['encoder-cost']);
}
try {
  const queries = generateQueries(Number(values.queries));
  const timings = new StageTimings();
  const allRuns: Array<[string, (tree: HybridTree, query: string) => Promise<unknown>]> = [
    ['retrieve() hybrid', (tree, query) => tree.retrieve(query, 'hybrid')],
    ['retrieve() lexical', (tree, query) => tree.retrieve(query, 'lexical')],
    ['context/get hybrid in-process', (tree, query) => tree.contextGet(query, 'hybrid')],
    ['context/get lexical in-process', (tree, query) => tree.contextGet(query, 'lexical')],
  ];
  const strategies = values.strategies.split(',').map((strategy) => strategy.trim());
  const runs = allRuns.filter(([name]) => strategies.some((strategy) => name.includes(` ${strategy}`)));
  // Warm-up: model loads in both pools, statement caches, term counts.
  for (const query of queries.slice(0, 5))
    for (const [, run] of runs) for (const side of ['before', 'after'] as const) await run(trees[side], query);
  for (const [index, query] of queries.entries()) {
    const order =
      index % 2 === 0
        ? (['before', 'after', 'after', 'before'] as const)
        : (['after', 'before', 'before', 'after'] as const);
    for (const [name, run] of runs)
      for (const side of order) await timings.time(`${name} — ${side}`, () => run(trees[side], query));
  }
  const cost = values['encoder-cost'] ? ' with the encoder cost' : '';
  const owners = Number(values.owners) > 1 ? `, every ${values.owners}th memory shared (the scope queried)` : '';
  process.stdout.write(`${values.model}${cost}${owners}, ${queries.length} queries, each twice per side\n`);
  process.stdout.write(`${timings.table()}\n`);
} finally {
  for (const tree of Object.values(trees)) await tree.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
}
