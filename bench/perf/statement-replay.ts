import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createBuiltInRegistry } from '../../packages/server/src/embeddings/default-registry.js';
import { retrieve } from '../../packages/server/src/retrieval/retrieve.js';
import type { Database } from '../../packages/server/src/store/database.js';
import { sharedDatabasePool } from '../../packages/server/src/store/database-pool.js';
import { contextRetrieval, openBenchTenant } from './hybrid-tree.js';
import { generateQueries } from './seed-data.js';

type Args = NonNullable<Parameters<Database['all']>[1]>;

/**
 * The database time of one `retrieve()`, statement by statement: every read of `--queries` calls is recorded, then
 * replayed one after another on the same database (twice; the second pass is printed), so each kind of statement's
 * cost is its own, without the queueing and the two workers' overlap of the real call. Also prints the calls' wall time
 * and the process's CPU time per call (all threads). Statistics are taken as the server takes them when it opens a
 * tenant. A benchmark, not a test.
 *
 * pnpm exec tsx bench/perf/statement-replay.ts --database <workspace.db> --strategy hybrid --model local/hash-384
 */
const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    strategy: { type: 'string', default: 'hybrid' },
    model: { type: 'string', default: 'local/hash-384' },
    queries: { type: 'string', default: '100' },
    /** How much of each statement's text names it in the table. */
    label: { type: 'string', default: '110' },
    top: { type: 'string', default: '14' },
  },
});
if (values.database === undefined) throw new Error('--database <workspace.db> is needed');
const strategy = values.strategy === 'lexical' ? 'lexical' : 'hybrid';
const count = Number(values.queries);

const folder = mkdtempSync(path.join(tmpdir(), 'statement-replay-'));
const file = path.join(folder, 'workspace.db');
copyFileSync(path.resolve(values.database), file);
const { database, tenant } = await openBenchTenant(file);
try {
  const pool = sharedDatabasePool();
  const recorded: Array<{ sql: string; args: Args }> = [];
  let recording = false;
  const run = pool.run.bind(pool);
  pool.run = ((...args: Parameters<typeof run>) => {
    const [request] = args;
    if (recording && request.kind === 'execute' && !/^\s*(INSERT|UPDATE|DELETE)/i.test(request.statement.sql))
      recorded.push({ sql: request.statement.sql, args: (request.statement.args ?? []) as Args });
    return run(...args);
  }) as typeof pool.run;
  const registry = createBuiltInRegistry();
  const queries = generateQueries(count + 20);
  const call = (query: string) => retrieve(tenant, contextRetrieval(query, strategy, values.model, registry));
  // Warm-up (statement caches, term counts), then the recorded calls.
  for (const query of queries.slice(count)) await call(query);
  recording = true;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (const query of queries.slice(0, count)) await call(query);
  const wall = (performance.now() - started) / count;
  const cpu = process.cpuUsage(cpuBefore);
  recording = false;
  const label = (sql: string) => sql.replace(/\s+/g, ' ').slice(0, Number(values.label));
  let costs = new Map<string, { count: number; ms: number }>();
  let total = 0;
  for (let pass = 0; pass < 2; pass++) {
    costs = new Map();
    total = 0;
    for (const { sql, args } of recorded) {
      const at = performance.now();
      await database.all(sql, args);
      const ms = performance.now() - at;
      total += ms;
      const entry = costs.get(label(sql)) ?? { count: 0, ms: 0 };
      entry.count++;
      entry.ms += ms;
      costs.set(label(sql), entry);
    }
  }
  process.stdout.write(
    `${strategy} retrieve(), ${count} questions: wall ${wall.toFixed(2)} ms, process CPU ${((cpu.user + cpu.system) / 1000 / count).toFixed(2)} ms, statements replayed one at a time ${(total / count).toFixed(2)} ms per call\n`,
  );
  process.stdout.write('| ms per call | statements | ms each | statement |\n| ---: | ---: | ---: | --- |\n');
  for (const [name, { count: statements, ms }] of [...costs]
    .sort((left, right) => right[1].ms - left[1].ms)
    .slice(0, Number(values.top)))
    process.stdout.write(
      `| ${(ms / count).toFixed(2)} | ${statements} | ${(ms / statements).toFixed(2)} | ${name.replaceAll('|', '\\|')} |\n`,
    );
} finally {
  await database.close();
  rmSync(folder, { recursive: true, force: true });
}
