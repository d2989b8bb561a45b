import type {
  ConsolidationCandidate,
  ConsolidationGroup,
  ConsolidationPlan,
} from '../store/consolidation-plan-rows.js';
import { replacesStatement } from './same-claim.js';
import { paraphraseKey } from './statement-facts.js';
import { readStatement, type Statement } from './subject-key.js';

/** Newest first by when it happened (an import of old history is not newer for being written later), then written. */
function newestFirst(left: ConsolidationCandidate, right: ConsolidationCandidate): number {
  return (
    right.occurredAt.localeCompare(left.occurredAt) ||
    right.createdAt.localeCompare(left.createdAt) ||
    right.seq - left.seq
  );
}

function scopeKey(memory: ConsolidationCandidate, ...rest: string[]): string {
  return JSON.stringify([memory.projectId, memory.userId, memory.type, ...rest]);
}

/** A memory and how its first line reads as a statement. */
interface Read {
  memory: ConsolidationCandidate;
  statement: Statement;
}

/**
 * Folds restatements in other words (pairs the indexer found, graph/paraphrase-edges.ts) into the newer of each pair,
 * when both are kept and in one (projectId, userId, type, category): the older and what it had merged become the
 * newer's duplicates. Newest first, so a chain of restatements ends in its newest.
 */
function mergeRestatements(
  ordered: readonly ConsolidationCandidate[],
  restated: ReadonlyArray<readonly [string, string]>,
  keptByHash: Map<string, ConsolidationCandidate>,
  duplicatesOf: Map<string, string[]>,
) {
  if (restated.length === 0) return;
  const rank = new Map(ordered.map((memory, index) => [memory.id, index]));
  const keyOf = new Map([...keptByHash.entries()].map(([key, memory]) => [memory.id, key]));
  const byId = new Map(ordered.map((memory) => [memory.id, memory]));
  const sorted = [...restated].sort(
    ([a, b], [c, d]) => Math.min(rank.get(a) ?? 0, rank.get(b) ?? 0) - Math.min(rank.get(c) ?? 0, rank.get(d) ?? 0),
  );
  // Where each merged memory went: a pair naming one that already merged names its winner.
  const winnerOf = new Map<string, string>();
  const resolve = (id: string): string => {
    const winner = winnerOf.get(id);
    return winner === undefined ? id : resolve(winner);
  };
  for (const pair of sorted) {
    const [newer, older] = pair.map(resolve).sort((x, y) => (rank.get(x) ?? 0) - (rank.get(y) ?? 0));
    if (newer === older) continue;
    const [newerMemory, olderMemory] = [byId.get(newer ?? ''), byId.get(older ?? '')];
    const olderKey = keyOf.get(older ?? '');
    if (newerMemory === undefined || olderMemory === undefined || olderKey === undefined || !keyOf.has(newerMemory.id))
      continue;
    if (scopeKey(newerMemory, newerMemory.category ?? '') !== scopeKey(olderMemory, olderMemory.category ?? ''))
      continue;
    keptByHash.delete(olderKey);
    keyOf.delete(olderMemory.id);
    winnerOf.set(olderMemory.id, newerMemory.id);
    const folded = [olderMemory.id, ...(duplicatesOf.get(olderMemory.id) ?? [])];
    duplicatesOf.delete(olderMemory.id);
    duplicatesOf.set(newerMemory.id, [...(duplicatesOf.get(newerMemory.id) ?? []), ...folded]);
  }
}

/**
 * Deterministic consolidation (docs/architecture.md#write-side-behaviour, revised so that unrelated memories sharing a label are never superseded). Within one (projectId, userId, type):
 * exact duplicates (same normalised content hash) merge into the newest copy, and so do rewordings that differ
 * only in function words, fillers, inflection and punctuation (`paraphraseKey`: the same topic words in the same
 * order, the same values, the same polarity, under the same category); the remaining memories are grouped
 * by subject key (readStatement), and within a group, newest first, a memory is superseded by the newest kept
 * memory that states the same claim with another value (replacesStatement); one that states something else is
 * kept; restatements in other words the indexer found (`restated`, `mergeRestatements`) merge into the newer first.
 * A shared key alone never supersedes: "Decision: the logo is blue" and "Decision: backups run nightly"
 * both stay. A memory whose text has no subject key stays alone.
 */
export function planConsolidation(
  candidates: readonly ConsolidationCandidate[],
  restated: ReadonlyArray<readonly [string, string]> = [],
): ConsolidationPlan {
  const ordered = [...candidates].sort(newestFirst);
  const keptByHash = new Map<string, ConsolidationCandidate>();
  const keptByWording = new Map<string, ConsolidationCandidate>();
  const duplicatesOf = new Map<string, string[]>();
  for (const memory of ordered) {
    const hashKey = scopeKey(memory, memory.contentHash);
    const wording = paraphraseKey(memory.content);
    const wordingKey = wording === null ? undefined : scopeKey(memory, memory.category ?? '', wording);
    const kept = keptByHash.get(hashKey) ?? (wordingKey === undefined ? undefined : keptByWording.get(wordingKey));
    if (kept === undefined) {
      keptByHash.set(hashKey, memory);
      if (wordingKey !== undefined) keptByWording.set(wordingKey, memory);
    } else duplicatesOf.set(kept.id, [...(duplicatesOf.get(kept.id) ?? []), memory.id]);
  }
  mergeRestatements(ordered, restated, keptByHash, duplicatesOf);
  const groups = new Map<string, Read[]>();
  for (const memory of keptByHash.values()) {
    const statement = readStatement(memory.content, memory.category);
    const groupKey = statement.key === '' ? `alone:${memory.id}` : scopeKey(memory, statement.key);
    groups.set(groupKey, [...(groups.get(groupKey) ?? []), { memory, statement }]);
  }
  const planned: ConsolidationGroup[] = [];
  for (const members of groups.values()) {
    // Newest first: each member is superseded by the newest winner that replaces it, or is a winner itself.
    const winners: Array<Read & { superseded: Read[] }> = [];
    for (const member of members) {
      const winner = winners.find((each) => replacesStatement(member.statement, each.statement));
      if (winner === undefined) winners.push({ ...member, superseded: [] });
      else winner.superseded.push(member);
    }
    for (const winner of winners) {
      const covered = [winner, ...winner.superseded];
      const mergedIds = covered.flatMap((read) => duplicatesOf.get(read.memory.id) ?? []);
      if (winner.superseded.length === 0 && mergedIds.length === 0) continue;
      planned.push({
        subjectKey: winner.statement.key,
        keySource: winner.statement.source,
        winnerId: winner.memory.id,
        mergedIds,
        supersededIds: winner.superseded.map((read) => read.memory.id),
      });
    }
  }
  return { inputCount: candidates.length, groups: planned };
}
