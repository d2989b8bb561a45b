/**
 * Opaque page cursors of memories/list and memories/{id}/history: base64url of a JSON array holding the sort key of
 * a page's last item. Keyset paging on keys that never change (a memory's `created_at` and `seq`, a version's
 * `replaced_at` and row number) resumes exactly after that item, whatever was added, edited or forgotten meanwhile.
 */

/** Where a memories/list page ended: newest first by `created_at`, then `seq` (both fixed when a memory is stored). */
export interface MemoryListKey {
  createdAt: string;
  seq: number;
}

/** Where a history page ended: newest first by `replacedAt`, then the entry's source (1 a memory, 0 a version), then its row. */
export interface MemoryHistoryKey {
  replacedAt: string;
  source: 0 | 1;
  seq: number;
}

function encode(values: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
}

function decode(cursor: string, length: number): unknown[] | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return Array.isArray(parsed) && parsed.length === length ? parsed : null;
  } catch {
    return null;
  }
}

// Stored times are ISO 8601 text; any short non-empty text is accepted, so a row written in another format still pages.
const isTimestamp = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= 64;
const isSeq = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

/** The `nextCursor` of a memories/list page ending at `key`. */
export function encodeMemoryListCursor(key: MemoryListKey): string {
  return encode([key.createdAt, key.seq]);
}

/** The key of a list cursor this server gave, or null for anything else (the caller answers 400 naming `cursor`). */
export function decodeMemoryListCursor(cursor: string): MemoryListKey | null {
  const parsed = decode(cursor, 2);
  if (parsed === null) return null;
  const [createdAt, seq] = parsed;
  return isTimestamp(createdAt) && isSeq(seq) ? { createdAt, seq } : null;
}

/** The `nextCursor` of a history page ending at `key`. */
export function encodeMemoryHistoryCursor(key: MemoryHistoryKey): string {
  return encode([key.replacedAt, key.source, key.seq]);
}

/** The key of a history cursor this server gave, or null for anything else. */
export function decodeMemoryHistoryCursor(cursor: string): MemoryHistoryKey | null {
  const parsed = decode(cursor, 3);
  if (parsed === null) return null;
  const [replacedAt, source, seq] = parsed;
  if (!isTimestamp(replacedAt) || (source !== 0 && source !== 1) || !isSeq(seq)) return null;
  return { replacedAt, source, seq };
}
