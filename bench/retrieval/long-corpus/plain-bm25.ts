import { Database } from '../../../packages/server/src/store/database.js';

/** The baseline's words of a text: Unicode letters and digits, lower-cased (the server reads queries the same way). */
function words(text: string): string[] {
  return [
    ...new Set(
      text
        .normalize('NFKC')
        .toLowerCase()
        .match(/[\p{L}\p{N}]+/gu) ?? [],
    ),
  ];
}

/**
 * The baseline lexical retrieval is measured against: a plain FTS5 table per index (the same tokenizer as the
 * server's, `porter unicode61 remove_diacritics 2`) holding the same messages, asked the OR of every word of the
 * question, each quoted (no stopword list, no prefixes, no shortcuts), ranked by `bm25()`: what anyone gets from
 * SQLite out of the box. An index is what one tenant holds; `group` narrows it to one user (the shared layout).
 */
export class PlainBm25 {
  private readonly tables = new Set<string>();

  private constructor(private readonly database: Database) {}

  /** An empty baseline in memory. */
  static async create(): Promise<PlainBm25> {
    return new PlainBm25(await Database.open({ url: 'file::memory:' }));
  }

  private async table(index: string): Promise<string> {
    const name = `plain_${index.replace(/[^A-Za-z0-9]/g, '_')}`;
    if (!this.tables.has(name)) {
      await this.database.run(
        `CREATE VIRTUAL TABLE ${name} USING fts5(content, grp UNINDEXED, key UNINDEXED,
           tokenize = 'porter unicode61 remove_diacritics 2')`,
      );
      this.tables.add(name);
    }
    return name;
  }

  /** Adds messages to an index. */
  async add(index: string, rows: ReadonlyArray<{ group: string; key: string; content: string }>): Promise<void> {
    const table = await this.table(index);
    await this.database.transaction(
      rows.map((row) => ({
        sql: `INSERT INTO ${table}(content, grp, key) VALUES (?, ?, ?)`,
        args: [row.content, row.group, row.key],
      })),
    );
  }

  /** The keys of the best `limit` messages of `group` in an index for a question, best first. */
  async rank(index: string, group: string, question: string, limit: number): Promise<string[]> {
    const terms = words(question);
    if (terms.length === 0) return [];
    const table = await this.table(index);
    const rows = await this.database.all<{ key: string }>(
      `SELECT key FROM ${table} WHERE ${table} MATCH ? AND grp = ? ORDER BY bm25(${table}) LIMIT ?`,
      [terms.map((term) => `"${term}"`).join(' OR '), group, limit],
    );
    return rows.map((row) => String(row.key));
  }

  async close(): Promise<void> {
    await this.database.close();
  }
}
