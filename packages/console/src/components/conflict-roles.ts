import type { ConflictPair } from '@memory-service/contract';

/** One conflict seen from one of its two memories: the other memory, and whether this one is the newer. */
export interface ConflictRole {
  conflict: ConflictPair;
  otherId: string;
  role: 'newer' | 'older';
}

/** The conflicts a memory is part of (`memoryAId` is the older of a pair, `memoryBId` the newer), in the API's order. */
export function conflictRolesOf(memoryId: string, conflicts: readonly ConflictPair[]): ConflictRole[] {
  const roles: ConflictRole[] = [];
  for (const conflict of conflicts) {
    if (conflict.memoryBId === memoryId) roles.push({ conflict, otherId: conflict.memoryAId, role: 'newer' });
    else if (conflict.memoryAId === memoryId) roles.push({ conflict, otherId: conflict.memoryBId, role: 'older' });
  }
  return roles;
}

/** A memory's content cut to fit one short line (`Deploys go out on Wednesdays…`). */
export function shortContent(content: string, length = 60): string {
  return content.length > length ? `${content.slice(0, length - 1)}…` : content;
}
