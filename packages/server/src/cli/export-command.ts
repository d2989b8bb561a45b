import { createWriteStream, existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { TRANSFER_RECORD_KINDS, type TransferCounts } from '@memory-service/contract';
import { loadConfig } from '../config.js';
import { exportSources, openDataDir } from '../transfer/data-dir.js';
import { exportChunks } from '../transfer/export-lines.js';
import { ExportWriter } from '../transfer/export-writer.js';
import { createProgress } from '../transfer/progress.js';
import { countRecords } from '../transfer/read-database.js';
import { CliFailure, type CliIo, EXIT_CODES } from './cli-io.js';

/** What `export` and `import` pick: a workspace and/or a tenant (default: everything). */
export interface TransferSelection {
  workspace?: string | undefined;
  tenantId?: string | undefined;
  withVectors: boolean;
}

/** `12 memories, 3 sessions`: the kinds that have records, in the format's order. */
export function describeCounts(counts: TransferCounts): string {
  const parts = TRANSFER_RECORD_KINDS.filter((kind) => kind !== 'tenant' && counts[kind] > 0).map(
    (kind) => `${counts[kind]} ${kind}${counts[kind] === 1 ? '' : 's'}`,
  );
  return parts.length === 0 ? 'no records' : parts.join(', ');
}

/**
 * `memory-service export <file>`: the data dir's databases (or the picked workspace/tenant) in the export format
 * (docs/export-format.md), streamed page by page into `<file>.partial` (0600), renamed to `<file>` once complete, so
 * an interrupted export never leaves a file that looks whole. `-` writes to stdout. Safe while a server runs.
 */
export async function exportCommand(
  io: CliIo,
  file: string,
  selection: TransferSelection & { force: boolean },
): Promise<number> {
  const config = loadConfig(io.env);
  const toStdout = file === '-';
  const target = toStdout ? '' : path.resolve(file);
  if (!toStdout && existsSync(target) && !selection.force) {
    throw new CliFailure(`${target} exists (use --force to replace it)`);
  }
  const now = io.now();
  const dataDir = await openDataDir(config, { create: false, now });
  try {
    const sources = await exportSources(dataDir, { ...selection, now });
    if (sources.length === 0)
      throw new CliFailure('nothing to export: no database matches (see: memory-service workspaces list)');
    let total = 0;
    for (const source of sources) {
      const database = await source.open();
      try {
        total += await countRecords(database, selection);
      } finally {
        await database.close();
      }
    }
    const progress = createProgress(io.stderr, 'export', 'records');
    const writer = new ExportWriter();
    const chunks = exportChunks(sources, {
      withVectors: selection.withVectors,
      now,
      writer,
      onRecords: (records) => progress.update(records, total),
    });
    if (toStdout) {
      for await (const chunk of chunks) io.stdout.write(chunk);
    } else {
      const partial = `${target}.partial`;
      try {
        await pipeline(Readable.from(chunks), createWriteStream(partial, { mode: 0o600 }));
        renameSync(partial, target);
      } catch (error) {
        rmSync(partial, { force: true });
        throw error;
      }
    }
    progress.finish();
    const summary = `Exported ${describeCounts(writer.written())} of ${sources.length} database${sources.length === 1 ? '' : 's'}${
      toStdout ? '' : ` to ${target}`
    }.\n`;
    (toStdout ? io.stderr : io.stdout).write(summary);
    return EXIT_CODES.ok;
  } finally {
    await dataDir.close();
  }
}
