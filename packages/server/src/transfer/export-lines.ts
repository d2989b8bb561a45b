import type { Database } from '../store/database.js';
import type { ImportTarget } from './check-import.js';
import { ExportWriter } from './export-writer.js';
import { databaseRecords } from './read-database.js';

/** A database to export: which one it is, and how to open a connection of the export's own to it. */
export interface ExportSource {
  target: ImportTarget;
  open(): Promise<Database>;
}

/** Text handed on at once (lines are joined up to this many characters, so a sink sees few, bounded writes). */
const CHUNK_CHARACTERS = 64 * 1024;

/**
 * The export of `sources` as text chunks (docs/export-format.md): the header, each database's `tenant` record and its
 * records, the trailer. Each database is read a page at a time; nothing waits for the whole export, so a slow
 * reader (a pipe, an HTTP client) holds the reading back instead of filling memory.
 */
export async function* exportChunks(
  sources: readonly ExportSource[],
  options: { withVectors: boolean; now: Date; onRecords?: (records: number) => void; writer?: ExportWriter },
): AsyncGenerator<string> {
  const writer = options.writer ?? new ExportWriter();
  let chunk = writer.header(options);
  let records = 0;
  for (const source of sources) {
    chunk += writer.record({
      record: 'tenant',
      workspace: source.target.workspace,
      workspaceName: source.target.workspaceName,
      tenantId: source.target.tenantId,
    });
    const database = await source.open();
    try {
      for await (const record of databaseRecords(database, options)) {
        chunk += writer.record(record);
        records += 1;
        if (chunk.length >= CHUNK_CHARACTERS) {
          options.onRecords?.(records);
          yield chunk;
          chunk = '';
        }
      }
    } finally {
      await database.close();
    }
  }
  options.onRecords?.(records);
  yield chunk + writer.trailer();
}
