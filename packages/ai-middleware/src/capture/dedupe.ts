import type { MemoryClient } from '@memory-service/client';
import { LIMITS, normalizeMemoryContent, type Scope } from '@memory-service/contract';

const RECENT_LIMIT = 512;

/** The text as the server compares duplicates (`normalizeMemoryContent`: Unicode forms, case, whitespace, a final full stop). */
export const normalizeContent = normalizeMemoryContent;

/**
 * Tells whether a text is already remembered in the scope: among the turn's retrieved memories, among what this
 * middleware stored lately, or found by a lexical search for it. A failed search counts as "not known". A known text
 * costs no write; the server refuses the duplicates this misses (two app instances capturing one fact at once) and
 * says so (`deduplicated`).
 */
export function createDeduplicator(client: MemoryClient, scope: Scope | undefined) {
  const recent = new Set<string>();
  return {
    async isKnown(content: string, known: readonly { content: string }[]): Promise<boolean> {
      const key = normalizeContent(content);
      if (recent.has(key) || known.some((memory) => normalizeContent(memory.content) === key)) return true;
      const query = content.trim().slice(0, LIMITS.query.max);
      const found = await client.memories.search({ query, strategy: 'lexical', limit: 5, scope });
      return found.memories.some((memory) => normalizeContent(memory.content) === key);
    },
    /** Notes a stored text, so the next turns skip it without a search. */
    remember(content: string): void {
      recent.add(normalizeContent(content));
      if (recent.size > RECENT_LIMIT) recent.delete(recent.values().next().value as string);
    },
  };
}

/** The deduplicator of one middleware. */
export type Deduplicator = ReturnType<typeof createDeduplicator>;
