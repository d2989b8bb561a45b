import type { InProcessServer } from '../retrieval/in-process-server.js';

/** The strategies a run compares; `default` omits `strategy` and lets the server's policy choose. */
export const STRATEGY_CHOICES = ['lexical', 'hybrid', 'default'] as const;
export type StrategyChoice = (typeof STRATEGY_CHOICES)[number];

/** What context/get answered, reduced to what the scores read. */
export interface Answer {
  /** `memories[]` ids in served order. */
  ids: string[];
  /** `conflicts[]` as id pairs, each once. */
  conflicts: Array<readonly [string, string]>;
  appliedStrategy: string;
  semanticFallback: boolean;
}

interface ContextData {
  memories: Array<{ id: string }>;
  conflicts?: Array<{ memoryAId: string; memoryBId: string }>;
  trace: { retrievalPolicyAppliedStrategy: string; semanticFallbackTriggered: boolean };
}

/** Asks context/get in a tenant with a strategy, as a service user would at prompt time. */
export async function ask(
  server: InProcessServer,
  tenantId: string,
  query: string,
  strategy: StrategyChoice,
  limit: number,
): Promise<Answer> {
  const data = await server.call<ContextData>('POST', '/context/get', {
    query,
    limit,
    includeSkillFiles: false,
    ...(strategy === 'default' ? {} : { strategy }),
    scope: { tenantId },
  });
  const seen = new Set<string>();
  const conflicts: Array<readonly [string, string]> = [];
  for (const { memoryAId, memoryBId } of data.conflicts ?? []) {
    const key = pairKey(memoryAId, memoryBId);
    if (seen.has(key)) continue;
    seen.add(key);
    conflicts.push([memoryAId, memoryBId]);
  }
  return {
    ids: data.memories.map((memory) => memory.id),
    conflicts,
    appliedStrategy: data.trace.retrievalPolicyAppliedStrategy,
    semanticFallback: data.trace.semanticFallbackTriggered,
  };
}

/** The same key for a pair in either order. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}
