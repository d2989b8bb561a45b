import { type SubjectKeySource, subjectKey } from './subject-key.js';

/** What consolidation reads of a memory. */
export interface ConsolidationCandidate {
  id: string;
  seq: number;
  content: string;
  type: string;
  category: string | null;
  projectId: string | null;
  userId: string | null;
  contentHash: string;
  createdAt: string;
}

/** One subject's outcome: the newest memory wins, older duplicates merge, older differing statements are superseded. */
export interface ConsolidationGroup {
  subjectKey: string;
  keySource: SubjectKeySource;
  winnerId: string;
  mergedIds: string[];
  supersededIds: string[];
}

/** The plan of a run; applying it changes nothing the plan does not name. */
export interface ConsolidationPlan {
  inputCount: number;
  groups: ConsolidationGroup[];
}

function newestFirst(left: ConsolidationCandidate, right: ConsolidationCandidate): number {
  return right.createdAt.localeCompare(left.createdAt) || right.seq - left.seq;
}

function scopeKey(memory: ConsolidationCandidate, ...rest: string[]): string {
  return JSON.stringify([memory.projectId, memory.userId, memory.type, ...rest]);
}

/**
 * Deterministic consolidation (DESIGN 5). Within one (projectId, userId, type): exact duplicates (same normalised
 * content hash) merge into the newest copy; the remaining memories are grouped by subject key, the newest of a
 * group wins and the others are superseded by it. A memory whose text has no subject key stays alone.
 */
export function planConsolidation(candidates: readonly ConsolidationCandidate[]): ConsolidationPlan {
  const ordered = [...candidates].sort(newestFirst);
  const keptByHash = new Map<string, ConsolidationCandidate>();
  const duplicatesOf = new Map<string, string[]>();
  for (const memory of ordered) {
    const hashKey = scopeKey(memory, memory.contentHash);
    const kept = keptByHash.get(hashKey);
    if (kept === undefined) keptByHash.set(hashKey, memory);
    else duplicatesOf.set(kept.id, [...(duplicatesOf.get(kept.id) ?? []), memory.id]);
  }
  const groups = new Map<string, { subject: ReturnType<typeof subjectKey>; members: ConsolidationCandidate[] }>();
  for (const memory of keptByHash.values()) {
    const subject = subjectKey(memory.content, memory.category);
    const groupKey = subject.key === '' ? `alone:${memory.id}` : scopeKey(memory, subject.key);
    const group = groups.get(groupKey) ?? { subject, members: [] };
    group.members.push(memory);
    groups.set(groupKey, group);
  }
  const planned: ConsolidationGroup[] = [];
  for (const { subject, members } of groups.values()) {
    const [winner, ...older] = members;
    if (winner === undefined) continue;
    const mergedIds = members.flatMap((member) => duplicatesOf.get(member.id) ?? []);
    if (older.length === 0 && mergedIds.length === 0) continue;
    planned.push({
      subjectKey: subject.key,
      keySource: subject.source,
      winnerId: winner.id,
      mergedIds,
      supersededIds: older.map((member) => member.id),
    });
  }
  return { inputCount: candidates.length, groups: planned };
}
