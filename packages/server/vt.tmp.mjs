import { createClient } from '@libsql/client';
import fs from 'node:fs';
for (const opts of ["'metric=cosine'", "'metric=cosine', 'max_neighbors=32', 'compress_neighbors=float8'"]) {
for (const dim of [384, 512]) {
fs.rmSync('/tmp/vt2.db', {force:true}); fs.rmSync('/tmp/vt2.db-wal', {force:true});
const c = createClient({ url: 'file:/tmp/vt2.db' });
await c.execute('PRAGMA journal_mode = WAL'); await c.execute('PRAGMA synchronous = NORMAL');
const f = (a) => new Uint8Array(new Float32Array(a).buffer);
await c.execute(`CREATE TABLE w (memory_seq INTEGER PRIMARY KEY, embedding F32_BLOB(${dim}) NOT NULL)`);
await c.execute(`CREATE INDEX w_idx ON w (libsql_vector_idx(embedding, ${opts}))`);
let t = performance.now();
for (let i = 1; i <= 1000; i++) { const a = Array.from({length:dim}, () => Math.random()-0.5); await c.execute({ sql: 'INSERT INTO w VALUES (?, vector32(?))', args: [i, f(a)] }); }
const ins = performance.now() - t; t = performance.now();
for (let i = 0; i < 50; i++) { const a = Array.from({length:dim}, () => Math.random()-0.5); await c.execute({ sql: "SELECT id FROM vector_top_k('w_idx', vector32(?), 100)", args: [f(a)] }); }
console.log(opts, dim, '1000 inserts ms', ins.toFixed(0), '50 topk', (performance.now()-t).toFixed(0));
c.close();
}}
