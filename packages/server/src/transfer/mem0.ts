import { createHash } from 'node:crypto';
import { LIMITS, MemoryRecordSchema, type TransferRecord } from '@memory-service/contract';
import { TransferError } from './transfer-error.js';

/** Which mem0 identifier becomes the memory's `projectId` (none: every one of them goes to metadata). */
export type Mem0ProjectSource = 'agent_id' | 'app_id' | 'run_id';

/** How mem0 memories are read (docs/export-format.md, "From mem0"). */
export interface Mem0Options {
  projectFrom?: Mem0ProjectSource | undefined;
  now: Date;
}

/** mem0's identifiers, kept under `metadata.mem0` (promoted keys of mem0's `get`/`getAll` answers). */
const MEM0_KEYS = ['id', 'hash', 'agent_id', 'run_id', 'app_id', 'actor_id', 'role'] as const;

/** An id this server keeps as it is (mem0's are UUIDs); anything else is replaced by a digest of it. */
const KEEPABLE_ID = /^[A-Za-z0-9._:-]{1,64}$/;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A mem0 timestamp (`2024-07-20T01:23:45.123456-07:00`) as an ISO 8601 UTC time, or null. */
function isoTime(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  // Date.parse takes milliseconds only: mem0 writes microseconds.
  const trimmed = value.trim().replace(/(\.\d{3})\d+/, '$1');
  const time = Date.parse(trimmed);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** Whether a parsed JSON value looks like one mem0 memory (`id` and `memory`). */
export function isMem0Item(value: unknown): value is Record<string, unknown> {
  return (
    isObject(value) &&
    typeof value.memory === 'string' &&
    (typeof value.id === 'string' || typeof value.id === 'number')
  );
}

/**
 * The memories of a mem0 `getAll` answer: a bare array (mem0 v1), `{ results: [...] }` (the open-source
 * `Memory.get_all`) or the platform's page `{ count, next, previous, results: [...] }`; null for anything else.
 */
export function mem0Items(document: unknown): unknown[] | null {
  if (Array.isArray(document)) return document.every(isMem0Item) ? document : null;
  if (isObject(document) && Array.isArray(document.results)) {
    return document.results.every(isMem0Item) ? document.results : null;
  }
  return null;
}

/**
 * One mem0 memory as a memory record: `memory` is the content, `user_id` the userId, `metadata` the metadata (with
 * mem0's own identifiers under `metadata.mem0`), `categories` the tags, `created_at`/`updated_at` the times (the
 * creation is also when it was said). It is a `fact` of the long-term layer. Its id is kept, so importing the same
 * file twice updates the same memories.
 */
export function mem0Record(item: unknown, line: number, options: Mem0Options): TransferRecord {
  if (!isMem0Item(item)) throw new TransferError(line, 'not a mem0 memory (it needs "id" and "memory")');
  const rawId = String(item.id);
  const id = KEEPABLE_ID.test(rawId) ? rawId : createHash('sha256').update(`mem0:${rawId}`).digest('hex').slice(0, 32);
  const mem0 = Object.fromEntries(
    MEM0_KEYS.flatMap((key) => (item[key] === undefined || item[key] === null ? [] : [[key, item[key]]])),
  );
  const metadata = { ...(isObject(item.metadata) ? item.metadata : {}), mem0 };
  const categories = Array.isArray(item.categories) ? item.categories : [];
  const tags = [
    ...new Set(
      categories
        .filter((tag): tag is string => typeof tag === 'string')
        .map((tag) => tag.trim().slice(0, LIMITS.tags.itemMax))
        .filter((tag) => tag !== ''),
    ),
  ].slice(0, LIMITS.tags.maxItems);
  const createdAt = isoTime(item.created_at) ?? options.now.toISOString();
  const updatedAt = isoTime(item.updated_at) ?? createdAt;
  const project = options.projectFrom === undefined ? undefined : item[options.projectFrom];
  const userId = item.user_id;
  const record = {
    record: 'memory',
    id,
    content: String(item.memory).trim(),
    type: 'fact',
    layer: 'long_term',
    tags,
    paths: [],
    category: null,
    metadata,
    userId: typeof userId === 'string' && userId !== '' ? userId : null,
    projectId: typeof project === 'string' && project !== '' ? project : null,
    embeddingModel: null,
    supersededBy: null,
    supersededAt: null,
    createdAt,
    updatedAt,
    occurredAt: createdAt,
    expiresAt: null,
    deletedAt: null,
  };
  const parsed = MemoryRecordSchema.safeParse(record);
  if (!parsed.success)
    throw new TransferError(line, `the mem0 memory is not valid: ${parsed.error.issues[0]?.message}`);
  if (parsed.data.content === '') throw new TransferError(line, 'the mem0 memory is empty');
  return parsed.data;
}
