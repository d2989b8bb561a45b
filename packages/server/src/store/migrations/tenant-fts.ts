import type { Migration } from '../migrate.js';

/**
 * Core tenant migrations after the first three (versions 4-9): the FTS index's tokenizer (4) and the recency index (5).
 *
 * Version 4 rebuilds `memories_fts` with the Porter stemmer over unicode61 (`porter` wraps the unicode61 tokenizer
 * and stems its English tokens), so "painting", "painted" and "paints" are one term in queries and documents alike.
 * On the LoCoMo development conversations (BENCHMARKS.md, Retrieval) BM25 recall@10 went from 0.596 to 0.624 and
 * hybrid from 0.717 to 0.721, before the fusion changes measured with it. The table keeps its columns, its external
 * content (`memories`, rowid `seq`), its triggers and its rank function (the column weights of version 3); the
 * index is rebuilt from `memories`, which holds every row the old index held.
 */
export const ftsMigrations: readonly Migration[] = [
  {
    version: 4,
    name: 'fts_porter_tokenizer',
    statements: [
      'DROP TRIGGER IF EXISTS memories_fts_insert',
      'DROP TRIGGER IF EXISTS memories_fts_delete',
      'DROP TRIGGER IF EXISTS memories_fts_update',
      'DROP TABLE IF EXISTS memories_fts',
      `CREATE VIRTUAL TABLE memories_fts USING fts5(
        content, tags, category, paths,
        content = 'memories', content_rowid = 'seq',
        tokenize = 'porter unicode61 remove_diacritics 2'
      )`,
      `CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts(rowid, content, tags, category, paths)
        VALUES (new.seq, new.content, new.tags, coalesce(new.category, ''), new.paths);
      END`,
      `CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts(memories_fts, rowid, content, tags, category, paths)
        VALUES ('delete', old.seq, old.content, old.tags, coalesce(old.category, ''), old.paths);
      END`,
      `CREATE TRIGGER memories_fts_update AFTER UPDATE OF content, tags, category, paths ON memories BEGIN
        INSERT INTO memories_fts(memories_fts, rowid, content, tags, category, paths)
        VALUES ('delete', old.seq, old.content, old.tags, coalesce(old.category, ''), old.paths);
        INSERT INTO memories_fts(rowid, content, tags, category, paths)
        VALUES (new.seq, new.content, new.tags, coalesce(new.category, ''), new.paths);
      END`,
      // The BM25 column weights of version 3, so `ORDER BY rank LIMIT n` keeps its top-n heap.
      "INSERT INTO memories_fts(memories_fts, rank) VALUES ('rank', 'bm25(1.0, 1.5, 1.2, 0.75)')",
      // Index every existing memory (the triggers keep it current from here on).
      "INSERT INTO memories_fts(memories_fts) VALUES ('rebuild')",
    ],
  },
  {
    version: 5,
    name: 'memories_recency_index',
    statements: [
      // Newest-first reads (memories/list, the recency and LIKE fallbacks of lexical retrieval) walk this index
      // backwards and stop at their limit instead of sorting every live memory of the tenant.
      'CREATE INDEX memories_recent ON memories(created_at, seq)',
    ],
  },
];
