import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

/**
 * What libSQL's DiskANN settings cost and find (not part of `pnpm bench`): copies the first `--vectors` stored vectors
 * of a workspace database into a fresh table per option set, inserting them as the indexer does (transactions of
 * 64), then searches with 200 vectors that were not inserted. Reports the insert cost over the last 2,000 inserts,
 * the search time for 25 and 250 neighbours, how many rows a search returns, and how many of the exact nearest 10
 * and 25 (by cosine, over every inserted vector) it found.
 * `tsx bench/perf/diskann-options.ts --workspace <workspace-100000-local-hash-384.db> --vectors 20000 \
 *   "max_neighbors=32,compress_neighbors=float8" "max_neighbors=32,compress_neighbors=float8,insert_l=32"`
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    workspace: { type: 'string' },
    vectors: { type: 'string', default: '20000' },
    table: { type: 'string', default: 'memory_vectors_local_hash_384_384' },
  },
});
if (values.workspace === undefined || positionals.length === 0)
  throw new Error('--workspace <file> and at least one option set ("max_neighbors=32,insert_l=32") are required');

interface Statement {
  raw(toggle?: boolean): Statement;
  all(parameters: unknown[]): unknown[][];
  run(parameters: unknown[]): unknown;
}
interface NativeDatabase {
  prepare(sql: string): Statement;
  exec(sql: string): void;
  close(): void;
}
// The server's own copy of the binding (the bench folder does not depend on it directly).
const require = createRequire(new URL('../../packages/server/package.json', import.meta.url));
const NativeDatabase = require('libsql') as new (file: string, options?: { readonly?: boolean }) => NativeDatabase;

const count = Number(values.vectors);
const queriesCount = 200;
const source = new NativeDatabase(values.workspace, { readonly: true });
const rows = source
  .prepare(`SELECT memory_seq, embedding FROM ${values.table} ORDER BY memory_seq LIMIT ?`)
  .raw(true)
  .all([count + queriesCount])
  .map(([seq, blob]) => ({
    seq: Number(seq),
    vector: new Float32Array(new Uint8Array(blob as Buffer).slice().buffer),
  }));
source.close();
const dimensions = rows[0]?.vector.length ?? 0;
const inserted = rows.slice(0, count);
const queries = rows.slice(count).map((row) => row.vector);

const norm = (vector: Float32Array) => Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
const norms = inserted.map((row) => norm(row.vector));
/** The exact nearest `k` inserted vectors to a query, by cosine. */
function exactNearest(query: Float32Array, k: number): number[] {
  const queryNorm = norm(query);
  const scored = inserted.map((row, index) => {
    let dot = 0;
    for (let offset = 0; offset < dimensions; offset++) dot += (query[offset] ?? 0) * (row.vector[offset] ?? 0);
    return { seq: row.seq, similarity: dot / (queryNorm * (norms[index] ?? 1) || 1) };
  });
  return scored
    .sort((left, right) => right.similarity - left.similarity)
    .slice(0, k)
    .map((entry) => entry.seq);
}
const truth = queries.map((query) => exactNearest(query, 25));
const blob = (vector: Float32Array) => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;

for (const optionSet of positionals) {
  const file = path.join(tmpdir(), `diskann-options-${process.pid}.db`);
  const remove = () => {
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  };
  remove();
  const database = new NativeDatabase(file);
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA synchronous = NORMAL');
  const options = ['metric=cosine', ...optionSet.split(',')].map((option) => `'${option}'`).join(', ');
  database.exec(`CREATE TABLE v (memory_seq INTEGER PRIMARY KEY, embedding F32_BLOB(${dimensions}) NOT NULL)`);
  database.exec(`CREATE INDEX v_idx ON v (libsql_vector_idx(embedding, ${options}))`);
  const insert = database.prepare('INSERT INTO v (memory_seq, embedding) VALUES (?, vector32(?))');
  const tail = Math.min(2000, Math.floor(count / 5));
  let tailMs = 0;
  const buildStarted = performance.now();
  for (let start = 0; start < count; start += 64) {
    const started = performance.now();
    database.exec('BEGIN');
    for (const row of inserted.slice(start, start + 64)) insert.run([row.seq, blob(row.vector)]);
    database.exec('COMMIT');
    if (start >= count - tail) tailMs += performance.now() - started;
  }
  const buildSeconds = (performance.now() - buildStarted) / 1000;
  const searches = [25, 250].map((k) => {
    const search = database.prepare(`SELECT id FROM vector_top_k('v_idx', vector32(?), ${k})`).raw(true);
    const times: number[] = [];
    let returned = 0;
    let found10 = 0;
    let found25 = 0;
    queries.forEach((query, index) => {
      const started = performance.now();
      const ids = new Set(search.all([blob(query)]).map(([id]) => Number(id)));
      times.push(performance.now() - started);
      returned += ids.size;
      const nearest = truth[index] ?? [];
      found10 += nearest.slice(0, 10).filter((seq) => ids.has(seq)).length;
      found25 += nearest.filter((seq) => ids.has(seq)).length;
    });
    times.sort((left, right) => left - right);
    return {
      k,
      p50: percentile(times, 0.5).toFixed(2),
      p95: percentile(times, 0.95).toFixed(2),
      rows: Math.round(returned / queries.length),
      recall10: (found10 / (10 * queries.length)).toFixed(3),
      recall25: (found25 / (25 * queries.length)).toFixed(3),
    };
  });
  console.log(
    `${optionSet}: ${count} vectors built in ${buildSeconds.toFixed(1)} s, insert ${(tailMs / tail).toFixed(2)} ms each (last ${tail})`,
  );
  for (const search of searches)
    console.log(
      `  k=${search.k}: p50 ${search.p50} / p95 ${search.p95} ms, ${search.rows} rows, recall of the exact 10 ${search.recall10}, of 25 ${search.recall25}`,
    );
  database.close();
  remove();
}
