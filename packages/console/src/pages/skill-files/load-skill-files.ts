import type { MemoryClient, SkillFile } from '@memory-service/client';
import { LIMITS } from '@memory-service/contract';

/** The skill files visible in the scope, ordered by path: as many as skills/list returns at most. */
export async function loadSkillFiles(client: MemoryClient, signal: AbortSignal): Promise<SkillFile[]> {
  const { skillFiles } = await client.skills.list({ limit: LIMITS.skillListLimit.max }, { signal });
  return skillFiles;
}

/** The session a promoted skill file came from (`metadata.source.sessionId`), else null. */
export function sourceSessionOf(file: SkillFile): string | null {
  const source = file.metadata['source'];
  if (typeof source !== 'object' || source === null) return null;
  const id = (source as Record<string, unknown>)['sessionId'];
  return typeof id === 'string' && id !== '' ? id : null;
}
