import type { ContextGetResult } from '@memory-service/client';
import type { ConflictPair, Memory, RetrievedMemory, SkillFile } from '@memory-service/contract';

/** A memory as a tool shows it to the model: what it says and how to refer to it, without storage details. */
export interface CompactMemory {
  id: string;
  type: Memory['type'];
  layer: Memory['layer'];
  content: string;
  tags: string[];
  category: string | null;
  updatedAt: string;
  score?: number;
}

/** A memory record reduced to what the model needs. */
export function compactMemory(memory: Memory | RetrievedMemory): CompactMemory {
  const { id, type, layer, content, tags, category, updatedAt } = memory;
  return { id, type, layer, content, tags, category, updatedAt, ...('score' in memory ? { score: memory.score } : {}) };
}

/** A skill file as a listing shows it: without its content. */
export interface CompactSkillFile {
  path: string;
  title: string | null;
  useCount: number;
  updatedAt: string;
}

/** A skill file listed without its content. */
export function compactSkillFile({ path, title, useCount, updatedAt }: SkillFile): CompactSkillFile {
  return { path, title, useCount, updatedAt };
}

/** A context bundle as the `getContext` tool returns it. */
export interface CompactContext {
  rules: CompactMemory[];
  memories: CompactMemory[];
  conflicts: ConflictPair[];
  skillFiles: { path: string; title: string | null; content: string }[];
}

/** A context bundle reduced to what the model needs: no trace, no storage fields. */
export function compactContext(context: ContextGetResult): CompactContext {
  return {
    rules: context.rules.map(compactMemory),
    memories: context.memories.map(compactMemory),
    conflicts: context.conflicts ?? [],
    skillFiles: context.skillFiles.map(({ path, title, content }) => ({ path, title, content })),
  };
}
