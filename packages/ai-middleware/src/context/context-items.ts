import type { ConflictPair, ContextGetData, RetrievedMemory, SkillFile } from '@memory-service/contract';

/** The parts of a `context.get` result that are formatted into the prompt. */
export type MemoryContextData = Pick<ContextGetData, 'rules' | 'memories' | 'skillFiles'> &
  Partial<Pick<ContextGetData, 'conflicts'>>;

/** One piece of the injected context; the formatter keeps or drops each one whole. */
export type ContextItem =
  | { kind: 'rule'; memory: RetrievedMemory }
  | { kind: 'summary'; text: string }
  | { kind: 'memory'; memory: RetrievedMemory }
  | { kind: 'conflict'; conflict: ConflictPair }
  | { kind: 'skillFile'; skillFile: SkillFile }
  | { kind: 'skillContent'; skillFile: SkillFile };

/**
 * The context as a list of items, highest rank first: rules, the session summary, memories in the server's rank
 * order (each conflict right after the lower-ranked memory of its pair), skill file entries, then skill file
 * contents. Trimming drops from the end, so a conflict always goes before either of its memories.
 */
export function rankContextItems(context: MemoryContextData, sessionSummary?: string | null): ContextItem[] {
  const items: ContextItem[] = [];
  const seen = new Set<string>();
  for (const memory of context.rules) {
    if (seen.has(memory.id)) continue;
    seen.add(memory.id);
    items.push({ kind: 'rule', memory });
  }
  if (sessionSummary !== undefined && sessionSummary !== null && sessionSummary.trim() !== '') {
    items.push({ kind: 'summary', text: sessionSummary.trim() });
  }
  const memories: RetrievedMemory[] = [];
  for (const memory of context.memories) {
    if (seen.has(memory.id)) continue;
    seen.add(memory.id);
    memories.push(memory);
  }
  const rankOf = new Map(memories.map((memory, index) => [memory.id, index]));
  const conflictsAfter = new Map<number, ConflictPair[]>();
  for (const conflict of context.conflicts ?? []) {
    const first = rankOf.get(conflict.memoryAId);
    const second = rankOf.get(conflict.memoryBId);
    if (first === undefined || second === undefined) continue;
    const after = Math.max(first, second);
    conflictsAfter.set(after, [...(conflictsAfter.get(after) ?? []), conflict]);
  }
  memories.forEach((memory, index) => {
    items.push({ kind: 'memory', memory });
    for (const conflict of conflictsAfter.get(index) ?? []) items.push({ kind: 'conflict', conflict });
  });
  for (const skillFile of context.skillFiles) items.push({ kind: 'skillFile', skillFile });
  for (const skillFile of context.skillFiles) {
    if (skillFile.content.trim() !== '') items.push({ kind: 'skillContent', skillFile });
  }
  return items;
}
