import type { TransferRecord } from '@memory-service/contract';
import type { Database } from '../store/database.js';
import { migrate } from '../store/migrate.js';
import { tenantMigrations } from '../store/migrations/tenant.js';
import {
  type ImportOptions,
  type ImportPlan,
  type ImportSource,
  type ImportTarget,
  isSelected,
  parseRecord,
} from './check-import.js';
import { mem0Record } from './mem0.js';
import { readLines } from './read-lines.js';
import {
  BatchTransactions,
  CollectedTransaction,
  DatabaseImporter,
  SingleTransaction,
  type StatementSink,
} from './write-database.js';

/**
 * Where an import writes one database of the file: a connection of the import's own (`own`: written in one transaction
 * when it is a file, else batch by batch), or the server's (`shared`: one transaction sent whole at the end). `release`
 * is called once the database is written (or failed).
 */
export type OpenTarget = (
  target: ImportTarget,
) => Promise<{ database: Database; connection: 'own' | 'shared'; release(): Promise<void> }>;

/** What an import wrote. */
export interface ImportResult {
  databases: Array<{ workspace: string; tenantId: string | null; records: number }>;
  queuedForIndexing: number;
}

/** The records of each selected database of the file, in file order, read again from the source. */
async function* sectionsOf(
  source: ImportSource,
  plan: ImportPlan,
  options: ImportOptions,
): AsyncGenerator<{ target: ImportTarget; records: AsyncGenerator<TransferRecord> }> {
  if (plan.format !== 'memory-service') {
    async function* memories(): AsyncGenerator<TransferRecord> {
      if (plan.items !== undefined) {
        for (const [index, item] of plan.items.entries()) yield mem0Record(item, index + 1, options.mem0);
        return;
      }
      for await (const line of readLines(source())) {
        if (line.text.trim() !== '') yield mem0Record(JSON.parse(line.text), line.number, options.mem0);
      }
    }
    yield { target: options.mem0Target, records: memories() };
    return;
  }
  // One pass over the lines, handing out each database's records in turn.
  const lines = readLines(source());
  let current: TransferRecord | null = null;
  const next = async (): Promise<TransferRecord | null> => {
    for (;;) {
      const { value: line, done } = await lines.next();
      if (done) return null;
      if (line.number === 1) continue;
      const parsed = JSON.parse(line.text) as { record?: unknown };
      if (parsed.record === 'end') return null;
      return parseRecord(line);
    }
  };
  current = await next();
  while (current !== null) {
    if (current.record !== 'tenant') throw new Error('the file changed since it was checked');
    const target = { workspace: current.workspace, workspaceName: current.workspaceName, tenantId: current.tenantId };
    current = await next();
    async function* records(): AsyncGenerator<TransferRecord> {
      while (current !== null && current.record !== 'tenant') {
        yield current;
        current = await next();
      }
    }
    if (isSelected(options, target)) yield { target, records: records() };
    else {
      for await (const _skipped of records()) {
        // Not picked: read past it.
      }
    }
  }
}

/**
 * Writes a checked file (`checkImport`): each selected database in its own transaction (a file database on a
 * connection of the import's own, so it is written whole or not at all; a database on a libSQL server batch by batch),
 * as upserts by id. `onRecords` is told of the records written so far.
 */
export async function writeImport(
  source: ImportSource,
  plan: ImportPlan,
  options: ImportOptions & {
    open: OpenTarget;
    /** Import the file's vector records (else they are skipped and the indexer derives the vectors again). */
    withVectors: boolean;
    now: Date;
    onRecords?: (records: number) => void;
  },
): Promise<ImportResult> {
  const result: ImportResult = { databases: [], queuedForIndexing: 0 };
  let written = 0;
  for await (const { target, records } of sectionsOf(source, plan, options)) {
    const { database, connection, release } = await options.open(target);
    try {
      await migrate(database, tenantMigrations);
      const single =
        connection === 'shared'
          ? new CollectedTransaction(database)
          : database.isFile
            ? new SingleTransaction(database)
            : null;
      const sink: StatementSink = single ?? new BatchTransactions(database);
      const importer = new DatabaseImporter(database, sink, {
        queueForIndexing: true,
        now: options.now,
      });
      await importer.prepare();
      let count = 0;
      if (single instanceof SingleTransaction) await single.begin();
      try {
        for await (const record of records) {
          if (record.record !== 'vector' || options.withVectors) await importer.add(record);
          count += 1;
          written += 1;
          if (written % 500 === 0) options.onRecords?.(written);
        }
        await importer.flush();
        await single?.commit();
      } catch (error) {
        if (single instanceof SingleTransaction) await single.rollback();
        throw error;
      }
      options.onRecords?.(written);
      result.databases.push({ workspace: target.workspace, tenantId: target.tenantId, records: count });
      result.queuedForIndexing += importer.queued;
    } finally {
      await release();
    }
  }
  return result;
}
