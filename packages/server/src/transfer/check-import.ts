import { createHash } from 'node:crypto';
import {
  TRANSFER_FORMAT,
  TRANSFER_VERSION,
  type TransferCounts,
  TransferHeaderSchema,
  type TransferRecord,
  TransferRecordSchema,
  TransferTrailerSchema,
} from '@memory-service/contract';
import type * as z from 'zod';
import { emptyCounts } from './export-writer.js';
import { isMem0Item, type Mem0Options, mem0Items, mem0Record } from './mem0.js';
import { type Line, readLines } from './read-lines.js';
import { TransferError } from './transfer-error.js';

/** Reads the file from its start (an import reads it twice: to check it, then to write it). */
export type ImportSource = () => AsyncIterable<Uint8Array>;

/** The formats an import reads. */
export type ImportFormat = 'memory-service' | 'mem0-jsonl' | 'mem0-json';

/** A database of the file: where its records go. */
export interface ImportTarget {
  workspace: string;
  workspaceName: string | null;
  tenantId: string | null;
}

/** What the check found: the format, and each database the import will write with its record count. */
export interface ImportPlan {
  format: ImportFormat;
  sections: Array<{ target: ImportTarget; records: number; selected: boolean }>;
  counts: TransferCounts;
  /** mem0 getAll JSON is one document, parsed once and kept (JSON lines are never held whole). */
  items?: unknown[];
}

/** Which databases of the file to import, and where mem0 memories go. */
export interface ImportOptions {
  workspace?: string | undefined;
  tenantId?: string | undefined;
  /** The target of mem0 memories (they name no database). */
  mem0Target: ImportTarget;
  mem0: Mem0Options;
  /** Bytes of a mem0 getAll JSON document (read whole). */
  maxDocumentBytes: number;
  /** Told of the bytes checked so far. */
  onBytes?: (bytes: number) => void;
}

const describeIssue = (error: z.ZodError): string => {
  const issue = error.issues[0];
  if (issue === undefined) return 'invalid';
  const field = issue.path.length > 0 ? ` (${issue.path.join('.')})` : '';
  return `${issue.message}${field}`;
};

function parseLine(line: Line): unknown {
  if (line.text.trim() === '') throw new TransferError(line.number, 'the line is empty');
  try {
    return JSON.parse(line.text);
  } catch {
    throw new TransferError(line.number, 'the line is not JSON');
  }
}

/** Parses a record line with the format's schema (the line number names a failure). */
export function parseRecord(line: Line): TransferRecord {
  const parsed = TransferRecordSchema.safeParse(parseLine(line));
  if (!parsed.success) throw new TransferError(line.number, `not a valid record: ${describeIssue(parsed.error)}`);
  return parsed.data;
}

const targetKey = (target: ImportTarget) => `${target.workspace}\u0000${target.tenantId ?? ''}`;

/** Whether the options pick this database of the file. */
export function isSelected(options: Pick<ImportOptions, 'workspace' | 'tenantId'>, target: ImportTarget): boolean {
  if (options.workspace !== undefined && target.workspace !== options.workspace) return false;
  if (options.tenantId !== undefined && target.tenantId !== options.tenantId) return false;
  return true;
}

/** Reads the first line, to tell the formats apart. */
async function firstLine(source: ImportSource): Promise<Line | undefined> {
  for await (const line of readLines(source())) return line;
  return undefined;
}

/** The whole of a mem0 getAll document, within `maxBytes`. */
async function readDocument(source: ImportSource, maxBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of source()) {
    bytes += chunk.byteLength;
    if (bytes > maxBytes)
      throw new TransferError(0, `a mem0 JSON document over ${maxBytes} bytes: export it as JSON lines`);
    chunks.push(Buffer.from(chunk));
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new TransferError(0, 'the file is neither JSON lines nor one JSON document');
  }
}

/**
 * Checks a whole file before anything is written, reading it once as a stream: every line must parse and pass its
 * schema, the version must be one this server reads, and the trailer's counts and checksum must match what came
 * before it (a truncated or edited file fails). Throws a TransferError naming the line; returns the plan.
 */
export async function checkImport(source: ImportSource, options: ImportOptions): Promise<ImportPlan> {
  const first = await firstLine(source);
  if (first === undefined) throw new TransferError(0, 'the file is empty');
  let head: unknown;
  try {
    head = JSON.parse(first.text);
  } catch {
    head = undefined;
  }
  if (head !== null && typeof head === 'object' && 'format' in head) return checkExportFile(source, options);
  if (isMem0Item(head)) return checkMem0Lines(source, options);
  const items = mem0Items(await readDocument(source, options.maxDocumentBytes));
  if (items === null) {
    throw new TransferError(
      first.number,
      `not an export: the first line is neither a "${TRANSFER_FORMAT}" header nor a mem0 memory`,
    );
  }
  const counts = emptyCounts();
  items.forEach((item, index) => {
    mem0Record(item, index + 1, options.mem0);
    counts.memory += 1;
  });
  return {
    format: 'mem0-json',
    sections: [{ target: options.mem0Target, records: items.length, selected: true }],
    counts,
    items,
  };
}

async function checkMem0Lines(source: ImportSource, options: ImportOptions): Promise<ImportPlan> {
  const counts = emptyCounts();
  let bytes = 0;
  for await (const line of readLines(source())) {
    bytes += line.bytes.length + 1;
    options.onBytes?.(bytes);
    if (line.text.trim() === '') continue;
    mem0Record(parseLine(line), line.number, options.mem0);
    counts.memory += 1;
  }
  return {
    format: 'mem0-jsonl',
    sections: [{ target: options.mem0Target, records: counts.memory, selected: true }],
    counts,
  };
}

async function checkExportFile(source: ImportSource, options: ImportOptions): Promise<ImportPlan> {
  const hash = createHash('sha256');
  const counts = emptyCounts();
  const sections: ImportPlan['sections'] = [];
  const seen = new Set<string>();
  let sessions = new Set<string>();
  let records = 0;
  let bytes = 0;
  let last = 0;
  let ended = false;
  for await (const line of readLines(source())) {
    last = line.number;
    bytes += line.bytes.length + 1;
    options.onBytes?.(bytes);
    if (ended) throw new TransferError(line.number, 'a line follows the trailer');
    if (line.number === 1) {
      const header = TransferHeaderSchema.safeParse(parseLine(line));
      if (!header.success) throw new TransferError(1, `not a valid header: ${describeIssue(header.error)}`);
      if (header.data.version !== TRANSFER_VERSION) {
        throw new TransferError(
          1,
          `version ${header.data.version} of the export format is unknown to this server (it reads version ${TRANSFER_VERSION})`,
        );
      }
      hash.update(line.bytes).update('\n');
      continue;
    }
    const value = parseLine(line);
    if (value !== null && typeof value === 'object' && (value as { record?: unknown }).record === 'end') {
      checkTrailer(value, line.number, { hash: hash.digest('hex'), counts, records });
      ended = true;
      continue;
    }
    if (!line.terminated) break;
    const record = parseRecord(line);
    hash.update(line.bytes).update('\n');
    records += 1;
    counts[record.record] += 1;
    if (record.record === 'tenant') {
      const target = { workspace: record.workspace, workspaceName: record.workspaceName, tenantId: record.tenantId };
      if (seen.has(targetKey(target)))
        throw new TransferError(line.number, 'this database appeared earlier in the file');
      seen.add(targetKey(target));
      sections.push({ target, records: 0, selected: isSelected(options, target) });
      sessions = new Set();
      continue;
    }
    const section = sections.at(-1);
    if (section === undefined) throw new TransferError(line.number, 'a record before the first "tenant" record');
    section.records += 1;
    if (record.record === 'session') sessions.add(record.id);
    if ((record.record === 'sessionEvent' || record.record === 'sessionSnapshot') && !sessions.has(record.sessionId)) {
      throw new TransferError(line.number, `session ${record.sessionId} does not come before its ${record.record}`);
    }
    if (record.record === 'vector' && record.values.length !== record.dimensions) {
      throw new TransferError(line.number, `the vector has ${record.values.length} values, not ${record.dimensions}`);
    }
  }
  if (!ended) throw new TransferError(last + 1, 'the file ends before its trailer: it is truncated');
  return { format: 'memory-service', sections, counts };
}

function checkTrailer(
  value: unknown,
  line: number,
  found: { hash: string; counts: TransferCounts; records: number },
): void {
  const trailer = TransferTrailerSchema.safeParse(value);
  if (!trailer.success) throw new TransferError(line, `not a valid trailer: ${describeIssue(trailer.error)}`);
  if (trailer.data.records !== found.records) {
    throw new TransferError(
      line,
      `the trailer counts ${trailer.data.records} records, the file holds ${found.records}`,
    );
  }
  for (const [kind, count] of Object.entries(found.counts)) {
    const said = trailer.data.counts[kind as keyof TransferCounts];
    if (said !== count)
      throw new TransferError(line, `the trailer counts ${said} ${kind} records, the file holds ${count}`);
  }
  if (trailer.data.sha256 !== found.hash) {
    throw new TransferError(line, 'the checksum does not match: the file was changed or damaged after its export');
  }
}
