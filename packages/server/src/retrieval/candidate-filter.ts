import type { ResolvedScope, RetrievedMemory } from '@memory-service/contract';
import type { MemoryRow } from '../store/memory-rows.js';
import { allOf, type Condition, visibleTo } from '../store/scope-filter.js';

/** A ranked memory: its row, its score (higher is better) and which retriever found it. */
export interface RankedCandidate {
  row: MemoryRow;
  score: number;
  source: RetrievedMemory['source'];
}

/** What every retriever is narrowed to. */
export interface CandidateScope {
  scope: ResolvedScope;
  type?: string;
  layer?: string;
  excludeLayer?: string;
  now?: Date;
}

/**
 * The conditions a candidate must meet (alias `m`), the same for the lexical and the vector side so fusion never mixes
 * in a memory one side would have filtered: live, current (not superseded), not past its TTL, visible to the scope,
 * and of the requested type and layer.
 */
export function candidateFilter(options: CandidateScope): Condition {
  const conditions: Condition[] = [
    { sql: 'm.deleted_at IS NULL AND m.superseded_by IS NULL', args: [] },
    { sql: '(m.expires_at IS NULL OR m.expires_at > ?)', args: [(options.now ?? new Date()).toISOString()] },
    visibleTo(options.scope, 'm'),
  ];
  if (options.type !== undefined) conditions.push({ sql: 'm.type = ?', args: [options.type] });
  if (options.layer !== undefined) conditions.push({ sql: 'm.layer = ?', args: [options.layer] });
  if (options.excludeLayer !== undefined) conditions.push({ sql: 'm.layer <> ?', args: [options.excludeLayer] });
  return allOf(...conditions);
}
