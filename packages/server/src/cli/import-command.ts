import { createReadStream, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { checkImport, type ImportOptions, type ImportPlan } from '../transfer/check-import.js';
import { importTargets, openDataDir } from '../transfer/data-dir.js';
import type { Mem0ProjectSource } from '../transfer/mem0.js';
import { createProgress } from '../transfer/progress.js';
import { TransferError } from '../transfer/transfer-error.js';
import { writeImport } from '../transfer/write-import.js';
import { CliFailure, type CliIo, EXIT_CODES } from './cli-io.js';
import { describeCounts, type TransferSelection } from './export-command.js';

/** The largest mem0 getAll JSON document the command reads (it is one document, parsed whole). */
const MAX_MEM0_DOCUMENT_BYTES = 512 * 1024 * 1024;

/**
 * `memory-service import <file>`: checks the whole file first (every line parses and passes its schema, the version
 * is known, the trailer's counts and checksum match; a damaged file is refused naming the line, with nothing
 * written), then writes each database of the file in one transaction, as upserts by id: importing a file twice
 * leaves the same state. Reads mem0 exports too (JSON lines of memories, or a getAll JSON document).
 */
export async function importCommand(
  io: CliIo,
  file: string,
  selection: TransferSelection & { mem0Project?: Mem0ProjectSource | undefined },
): Promise<number> {
  const config = loadConfig(io.env);
  const source = path.resolve(file);
  if (!existsSync(source) || !statSync(source).isFile()) throw new CliFailure(`no file at ${source}`);
  const now = io.now();
  const size = statSync(source).size;
  const open = () => createReadStream(source);
  const options: ImportOptions = {
    workspace: selection.workspace,
    tenantId: selection.tenantId,
    mem0Target: {
      workspace: selection.workspace ?? 'default',
      workspaceName: null,
      tenantId: selection.tenantId ?? null,
    },
    mem0: { projectFrom: selection.mem0Project, now },
    maxDocumentBytes: MAX_MEM0_DOCUMENT_BYTES,
  };
  const checking = createProgress(io.stderr, 'import: checking', 'bytes');
  let plan: ImportPlan;
  try {
    plan = await checkImport(open, { ...options, onBytes: (bytes) => checking.update(bytes, size) });
  } catch (error) {
    if (error instanceof TransferError) throw new CliFailure(`import refused, nothing was written: ${error.message}`);
    throw error;
  }
  checking.finish();
  const selected = plan.sections.filter((section) => section.selected);
  if (selected.length === 0)
    throw new CliFailure('nothing to import: no database of the file matches --workspace/--tenant');
  const total = selected.reduce((sum, section) => sum + section.records, 0);
  const dataDir = await openDataDir(config, { create: true, now });
  try {
    const writing = createProgress(io.stderr, 'import: writing', 'records');
    const result = await writeImport(open, plan, {
      ...options,
      open: importTargets(dataDir, now),
      withVectors: selection.withVectors,
      now,
      onRecords: (records) => writing.update(records, total),
    });
    writing.finish();
    const whole = selected.length === plan.sections.length;
    const counts = { ...plan.counts, ...(selection.withVectors ? {} : { vector: 0 }) };
    const what = whole ? describeCounts(counts) : `${total} records`;
    io.stdout.write(
      `Imported ${what} (${plan.format}) into ${result.databases.length} database${result.databases.length === 1 ? '' : 's'}` +
        ` of ${config.dataDir}.\n`,
    );
    if (result.queuedForIndexing > 0) {
      io.stdout.write(
        `${result.queuedForIndexing} memories are queued for indexing: their vectors and graph edges are derived when a server runs on this data dir.\n`,
      );
    }
    return EXIT_CODES.ok;
  } finally {
    await dataDir.close();
  }
}
