import type { Memory } from '@memory-service/contract';
import { sharesSubject } from '../consolidation/conflict-in-other-words.js';
import { readFacts } from '../consolidation/statement-facts.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import { olderFirst } from './conflicts.js';

/** An older served memory and a newer one to serve above it. */
export interface NewerPair {
  memoryAId: string;
  memoryBId: string;
}

/** `similar_to` edges among these memories (cosine >= 0.85 of their vectors, or word shingles without one). */
async function similarAmong({ database }: TenantDatabase, ids: readonly string[]) {
  const marks = ids.map(() => '?').join(', ');
  return database.all<{ source_memory_id: string; target_memory_id: string }>(
    `SELECT source_memory_id, target_memory_id FROM graph_edges
      WHERE edge_type = 'similar_to' AND source_memory_id IN (${marks}) AND target_memory_id IN (${marks})`,
    [...ids, ...ids],
  );
}

/** The stored vectors of these memories, by id (one query per embedding model among them). */
async function vectorsOf(tenant: TenantDatabase, memories: readonly Memory[]): Promise<Map<string, Float32Array>> {
  const vectors = new Map<string, Float32Array>();
  const models = new Set(memories.flatMap((memory) => memory.embeddingModel ?? []));
  for (const model of models) {
    const table = await tenant.vectorTables.find(model);
    if (table === undefined) continue;
    const ids = memories.filter((memory) => memory.embeddingModel === model).map((memory) => memory.id);
    const rows = await tenant.database.all<{ id: string; embedding: ArrayBuffer }>(
      `SELECT m.id, v.embedding FROM memories m JOIN ${table.tableName} v ON v.memory_seq = m.seq
        WHERE m.id IN (${ids.map(() => '?').join(', ')})`,
      ids,
    );
    for (const row of rows) vectors.set(row.id, new Float32Array(row.embedding));
  }
  return vectors;
}

function cosine(left: Float32Array, right: Float32Array): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (let index = 0; index < left.length; index += 1) {
    const [a, b] = [left[index] ?? 0, right[index] ?? 0];
    dot += a * b;
    leftNorm += a * a;
    rightNorm += b * b;
  }
  return leftNorm === 0 || rightNorm === 0 ? 0 : dot / Math.sqrt(leftNorm * rightNorm);
}

/** The served memory closest in meaning to `memory` (same model), if any has a vector. */
function nearest(memory: Memory, others: readonly Memory[], vectors: Map<string, Float32Array>) {
  const own = vectors.get(memory.id);
  if (own === undefined) return undefined;
  let best: { memory: Memory; similarity: number } | undefined;
  for (const other of others) {
    const vector = vectors.get(other.id);
    if (other.id === memory.id || vector === undefined || vector.length !== own.length) continue;
    const similarity = cosine(own, vector);
    if (best === undefined || similarity > best.similarity) best = { memory: other, similarity };
  }
  return best?.memory;
}

/** Sentences a memory may have and still be one statement: a claim and, at most, its reason or context. */
const STATEMENT_SENTENCES = 2;

/**
 * Whether a memory states one thing: one or two sentences. A long message (a conversation turn, a note of many
 * topics) that uses "now" or resembles another one says nothing about which of its claims changed, so neither rule
 * below reorders it: on long conversations they moved newer turns above the older turn a question was about.
 */
function isStatement(memory: Memory): boolean {
  const sentences = memory.content.split(/[.!?]+(?:\s+|$)/).filter((part) => part.trim() !== '');
  return sentences.length <= STATEMENT_SENTENCES;
}

/**
 * Pairs of served memories of which the newer (by when it happened) should be read first, beyond known conflicts
 * (docs/architecture.md#retrieval). Two memories are such a pair when
 * - they say nearly the same thing (a `similar_to` edge, the write-time cosine >= 0.85): if they agree the order
 *   costs nothing, if they differ the newer is the more likely to be current; or
 * - the newer says that something changed ("now", "switched", "moved", "instead", "no longer"...) and the older is
 *   what it most likely changed: the served memory closest to it in meaning (cosine of their stored vectors,
 *   computed on the served rows only), or one that shares its subject by words (at least half the topic words of
 *   the shorter, as the conflict rule asks). "I'm reading Dune." then "Finished Dune; now I'm on Piranesi.".
 * Both hold in any store and need no threshold fitted to one: they only reorder two memories the query already
 * served, by facts of the memories themselves (their meaning, their words, their dates), never by the query; a wrong
 * pair swaps two relevant memories, a right one puts the current statement first for a model that reads top-down.
 * Only statements (`isStatement`) are paired: facts, preferences, decisions, not long messages.
 */
export async function newerFirstPairs(tenant: TenantDatabase, served: readonly Memory[]): Promise<NewerPair[]> {
  const memories = served.filter(isStatement);
  if (memories.length < 2) return [];
  const byId = new Map(memories.map((memory) => [memory.id, memory]));
  const pairs = new Map<string, NewerPair>();
  const add = (left: Memory, right: Memory) => {
    const [older, newer] = olderFirst(left, right);
    if (older.id !== newer.id) pairs.set(`${older.id}|${newer.id}`, { memoryAId: older.id, memoryBId: newer.id });
  };
  for (const edge of await similarAmong(tenant, [...byId.keys()])) {
    const left = byId.get(edge.source_memory_id);
    const right = byId.get(edge.target_memory_id);
    if (left !== undefined && right !== undefined && left.content !== right.content) add(left, right);
  }
  const facts = new Map(memories.map((memory) => [memory.id, readFacts(memory.content)]));
  const changes = memories.filter((memory) => facts.get(memory.id)?.updates === true);
  if (changes.length === 0) return [...pairs.values()];
  const vectors = await vectorsOf(tenant, memories);
  for (const change of changes) {
    const changed = facts.get(change.id);
    const closest = nearest(change, memories, vectors);
    for (const other of memories) {
      const otherFacts = facts.get(other.id);
      if (other.id === change.id || changed === undefined || otherFacts === undefined) continue;
      if (olderFirst(other, change)[1] !== change) continue;
      if (other === closest || sharesSubject(otherFacts, changed)) add(other, change);
    }
  }
  return [...pairs.values()];
}
