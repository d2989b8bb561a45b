import type { EdgeType } from '@memory-service/contract';
import { statesOtherValue } from '../consolidation/same-claim.js';
import { readStatement, subjectKey } from '../consolidation/subject-key.js';
import { matchExpression, queryTerms } from '../retrieval/fts-query.js';
import { termStatistics } from '../retrieval/term-frequency.js';
import type { Database } from '../store/database.js';
import { subjectPeers } from '../store/graph-edges.js';
import type { MemoryRow } from '../store/memory-rows.js';
import { visibleTo } from '../store/scope-filter.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import { metadataRelations } from './graph-model.js';
import { exactScopeNeighbours } from './scope-neighbours.js';
import { jaccard, LEXICAL_SIMILARITY_THRESHOLD, shingles } from './text-similarity.js';

/** A memory-to-memory edge found by extraction. */
export interface MemoryEdge {
  sourceId: string;
  targetId: string;
  edgeType: EdgeType;
  confidence: number;
  detail: Record<string, unknown>;
}

/** Neighbours read per write before the similarity check (the vector index's nearest, or FTS's best matches). */
export const SIMILARITY_CANDIDATES = 25;
/**
 * What a write's neighbour search asks the vector index: a memory's own vector is in the index and is its own
 * nearest, so one more than `SIMILARITY_CANDIDATES` leaves that many others. Asked for exactly 25, the index's answer
 * always held 24 others, which read as "too few" and ranked the whole scope exactly on every write to a tenant of up
 * to 4,096 memories (6 ms per memory at 2,000).
 */
export const SIMILARITY_SEARCH = SIMILARITY_CANDIDATES + 1;

/** The nearest `SIMILARITY_CANDIDATES` of neighbours found by the index (which asks one more: `SIMILARITY_SEARCH`). */
export function nearestCandidates<T extends { similarity: number }>(scored: T[]): T[] {
  return scored.sort((left, right) => right.similarity - left.similarity).slice(0, SIMILARITY_CANDIDATES);
}
/** Cosine similarity of two memories' vectors at or above which they get a `similar_to` edge (docs/architecture.md#retrieval). */
export const COSINE_SIMILARITY_THRESHOLD = 0.85;
/** At most this many `similar_to` edges per memory. */
const MAX_SIMILAR = 10;
/** Same-subject memories checked per write. */
const MAX_SAME_SUBJECT = 20;
/** Types that state something a newer memory can contradict; a skill describes a procedure, not a current truth. */
export const STATEMENT_TYPES: ReadonlySet<string> = new Set(['rule', 'decision', 'fact', 'note']);
/**
 * Types whose older statement the indexer supersedes at write time when the rule is sure. A note (the type of an add
 * that names none, and of captured turns) is only marked as conflicting: a log of notes under one key ("Sprint goal:
 * ...") is history the user may still want served.
 */
const SUPERSEDED_TYPES: ReadonlySet<string> = new Set(['rule', 'decision', 'fact']);
/**
 * A subject with more live statements than this (the new one included) is a log (a speaker's turns, a running
 * topic), not a fact with one current value: its members are not flagged as contradicting each other
 * (consolidation still groups them).
 */
const MAX_LIVE_STATEMENTS = 5;
/** How many of a memory's rarest words look for its lexical neighbours. */
const NEIGHBOUR_TERMS = 8;
/**
 * Confidence that two same-subject memories with different content contradict, by how the subject was found:
 * an explicit `subject:` prefix is a strong signal, a shared category a weak one (it may hold several facts).
 */
const CONTRADICTION_CONFIDENCE = { prefix: 0.9, first_words: 0.75, category: 0.6 } as const;

/** The consolidation group of a memory: (projectId, userId, type, subject key), as one comparable string. */
export function subjectGroup(row: Pick<MemoryRow, 'project_id' | 'user_id' | 'type' | 'content' | 'category'>) {
  const subject = subjectKey(row.content, row.category);
  return { groupKey: JSON.stringify([row.project_id, row.user_id, row.type, subject.key]), subject };
}

function scopeOf(row: MemoryRow) {
  return { tenantId: null, userId: row.user_id, projectId: row.project_id };
}

/** The memory's stored vector and its model's table, if it has one. */
async function storedVector({ vectorTables }: TenantDatabase, row: MemoryRow) {
  if (row.embedding_model === null) return undefined;
  const table = await vectorTables.find(row.embedding_model);
  if (table === undefined) return undefined;
  const embedding = await vectorTables.storedVector(table, row.seq);
  return embedding === undefined ? undefined : { table, embedding };
}

/**
 * Nearest neighbours by cosine among the live memories the writer can see. A narrow scope of a larger tenant is ranked
 * exactly (`scopeRanking`); any other is searched in the model's vector index, and when that leaves fewer than asked
 * in the whole of a small tenant, ranked exactly (`exactScopeNeighbours`). CROSS JOIN pins the join order: left free,
 * SQLite may scan the scope index and run the vector search once per memory.
 */
async function cosineNeighbours(
  { database, scopeRankings }: TenantDatabase,
  row: MemoryRow,
  vector: NonNullable<Awaited<ReturnType<typeof storedVector>>>,
) {
  const { table, embedding } = vector;
  const exactly = async () =>
    (await exactScopeNeighbours(database, table, scopeOf(row), [row.seq], SIMILARITY_CANDIDATES)).get(row.seq);
  const ranking = await scopeRankings.ranking(scopeOf(row));
  if (ranking === 'exact') return (await exactly()) ?? [];
  const visible = visibleTo(scopeOf(row), 'm');
  const neighbours = await database.all<{ id: string; distance: number }>(
    `SELECT m.id, vector_distance_cos(v.embedding, vector32(?)) AS distance
       FROM vector_top_k('${table.indexName}', vector32(?), ?) AS top
       CROSS JOIN ${table.tableName} v ON v.rowid = top.id
       CROSS JOIN memories m ON m.seq = v.memory_seq
      WHERE m.id <> ? AND m.deleted_at IS NULL AND m.superseded_by IS NULL AND ${visible.sql}`,
    [embedding, embedding, SIMILARITY_SEARCH, row.id, ...visible.args],
  );
  const scored = nearestCandidates(
    neighbours.map((neighbour) => ({ id: neighbour.id, similarity: 1 - Number(neighbour.distance) })),
  );
  if (scored.length >= SIMILARITY_CANDIDATES || ranking !== 'index-or-exact') return scored;
  return (await exactly()) ?? scored;
}

/** Lexical neighbours (FTS on the memory's rarest words) scored by word-shingle Jaccard. */
async function lexicalNeighbours({ database, termCounts }: TenantDatabase, row: MemoryRow) {
  // A close paraphrase shares the memory's rarest words: searching on those alone bounds the work on a large index.
  const statistics = await termStatistics(termCounts, queryTerms(row.content));
  const rarest = [...statistics.terms]
    .sort((left, right) => (statistics.frequencies.get(left) ?? 0) - (statistics.frequencies.get(right) ?? 0))
    .slice(0, NEIGHBOUR_TERMS);
  const match = matchExpression(rarest);
  if (match === null) return [];
  const visible = visibleTo(scopeOf(row), 'm');
  const neighbours = await database.all<{ id: string; content: string }>(
    `SELECT m.id, m.content FROM memories_fts JOIN memories m ON m.seq = memories_fts.rowid
      WHERE memories_fts MATCH ? AND m.id <> ? AND m.deleted_at IS NULL AND m.superseded_by IS NULL AND ${visible.sql}
      ORDER BY rank LIMIT ?`,
    [match, row.id, ...visible.args, SIMILARITY_CANDIDATES],
  );
  const own = shingles(row.content);
  return neighbours.map((neighbour) => ({ id: neighbour.id, similarity: jaccard(own, shingles(neighbour.content)) }));
}

/** A memory's nearest live neighbours the writer can see, with how similar each is and by which measure. */
export interface Neighbours {
  measure: 'cosine' | 'word_shingle_jaccard';
  scored: Array<{ id: string; similarity: number }>;
}

/**
 * The memory's nearest neighbours: through the model's vector index when it has a vector (its nearest memories,
 * whatever their words), else by word-shingle Jaccard over its lexical neighbours, so a memory whose model failed
 * is not left without neighbours.
 */
export async function nearestNeighbours(tenant: TenantDatabase, row: MemoryRow): Promise<Neighbours> {
  const vector = await storedVector(tenant, row);
  return vector === undefined
    ? { measure: 'word_shingle_jaccard', scored: await lexicalNeighbours(tenant, row) }
    : { measure: 'cosine', scored: await cosineNeighbours(tenant, row, vector) };
}

/**
 * `similar_to` edges (docs/architecture.md#retrieval): neighbours (`nearestNeighbours`) at cosine >= 0.85, or at
 * word-shingle Jaccard >= 0.4 for a memory without a vector; each edge's `detail.measure` says which decided.
 */
export function similarEdges(row: MemoryRow, { measure, scored }: Neighbours): MemoryEdge[] {
  const threshold = measure === 'cosine' ? COSINE_SIMILARITY_THRESHOLD : LEXICAL_SIMILARITY_THRESHOLD;
  return scored
    .filter((candidate) => candidate.similarity >= threshold)
    .sort((left, right) => right.similarity - left.similarity)
    .slice(0, MAX_SIMILAR)
    .map((candidate) => ({
      sourceId: row.id,
      targetId: candidate.id,
      edgeType: 'similar_to',
      confidence: Math.round(candidate.similarity * 1000) / 1000,
      detail: { measure },
    }));
}

/** `similar_to` edges of a memory (`nearestNeighbours`, then `similarEdges`). */
export async function similarMemories(tenant: TenantDatabase, row: MemoryRow): Promise<MemoryEdge[]> {
  return similarEdges(row, await nearestNeighbours(tenant, row));
}

/** `caused_by` / `depends_on` edges to live memories the writer can see, named in metadata. */
export async function metadataEdges(tenant: TenantDatabase, row: MemoryRow, metadata: Record<string, unknown>) {
  const relations = metadataRelations(metadata).filter((relation) => relation.targetId !== row.id);
  if (relations.length === 0) return [];
  const ids = [...new Set(relations.map((relation) => relation.targetId))];
  const found = await tenant.memories.findManyVisible(ids, scopeOf(row));
  const existing = new Set(found.map((entry) => entry.id));
  return relations
    .filter((relation) => existing.has(relation.targetId))
    .map<MemoryEdge>((relation) => ({
      sourceId: row.id,
      targetId: relation.targetId,
      edgeType: relation.edgeType,
      confidence: 1,
      detail: { source: 'metadata' },
    }));
}

/**
 * Same-subject memories (the consolidation group): an identical one (same content hash) is `similar_to` at
 * confidence 1; a different one `contradicts` it when the newer (by `occurred_at`, then write order) states the
 * same claim with another value (`statesOtherValue`: the rule consolidation supersedes by, restatements aside),
 * when both are statements (rule, decision, fact, note) and the subject is not a log (see MAX_LIVE_STATEMENTS);
 * `detail.supersede` says whether the indexer supersedes the older at once (SUPERSEDED_TYPES). Also returns the ids
 * of the peers it judged (a contradiction, a duplicate, or a member of a log: its verdict stands); peers it found no
 * contradiction with, and a note's non-clause peers, are left to the comparison in other words. Two different
 * claims under one subject ("Alice is the team lead" / "Alice is vegetarian") are not a conflict. `batchPeers` are
 * the group's memories written earlier in the same batch, oldest first.
 */
export async function sameSubjectEdges(
  database: Database,
  row: MemoryRow,
  groupKey: string,
  batchPeers: readonly MemoryRow[] = [],
) {
  const stored = await subjectPeers(database, groupKey, row.id, MAX_SAME_SUBJECT);
  // Earlier memories of the same group commit are peers too (their subject rows are written with this one's).
  const peers: SubjectPeer[] = [...[...batchPeers].reverse(), ...stored].slice(0, MAX_SAME_SUBJECT);
  const subject = subjectKey(row.content, row.category);
  const contradicting = STATEMENT_TYPES.has(row.type) && peers.length + 1 <= MAX_LIVE_STATEMENTS;
  // Peers this rule judged (a log's members included): the comparison in other words leaves them be.
  const judged = new Set<string>();
  const edges = peers.flatMap<MemoryEdge>((peer) => {
    judged.add(peer.id);
    if (peer.content_hash === row.content_hash) {
      return [
        {
          sourceId: row.id,
          targetId: peer.id,
          edgeType: 'similar_to',
          confidence: 1,
          detail: { duplicate: true },
        },
      ];
    }
    if (!contradicting) return [];
    const [older, newer] = newerLast(peer, row);
    const [before, after] = [
      readStatement(older.content, older.category),
      readStatement(newer.content, newer.category),
    ];
    // A note is compared only as a clause (subject, verb, value): notes under one label ("Mel: hi", "Sprint goal:
    // ship search") or with the same first words are a log more often than one fact.
    if (row.type === 'note' && (before.shape !== 'clause' || after.shape !== 'clause')) {
      judged.delete(peer.id);
      return [];
    }
    // No verdict of conflict is no verdict of agreement: the comparison in other words reads the pair too ("The
    // summit is in Oslo" / "The summit is being held in Bergen" share the key "summit is").
    if (!statesOtherValue(before, after)) {
      judged.delete(peer.id);
      return [];
    }
    return [
      {
        sourceId: row.id,
        targetId: peer.id,
        edgeType: 'contradicts',
        confidence: CONTRADICTION_CONFIDENCE[subject.source],
        detail: {
          subjectKey: subject.key,
          keySource: subject.source,
          reason: 'same_claim_other_value',
          newerId: newer.id,
          supersede: SUPERSEDED_TYPES.has(row.type),
        },
      },
    ];
  });
  return { edges, compared: [...judged] };
}

/** What comparing two memories reads of each. */
export type SubjectPeer = Pick<MemoryRow, 'id' | 'content' | 'category' | 'content_hash' | 'occurred_at' | 'seq'>;

/** The two memories, older first: by when they happened (`occurred_at`), then by write order. */
export function newerLast<Peer extends Pick<MemoryRow, 'occurred_at' | 'seq'>>(left: Peer, right: Peer): [Peer, Peer] {
  const byTime = left.occurred_at.localeCompare(right.occurred_at) || Number(left.seq) - Number(right.seq);
  return byTime <= 0 ? [left, right] : [right, left];
}
