import type { ConflictPair } from '@memory-service/contract';
import { type ConflictRole, conflictRolesOf, shortContent } from '../../components/conflict-roles.js';
import { MemoryLink } from '../../components/memory-link.js';

/** What a memory's conflicts read besides the memory: the pairs among the listed memories, and their text. */
export interface RelatedMemories {
  conflicts: readonly ConflictPair[];
  contentOf: (id: string) => string | undefined;
}

/**
 * Conflicts shown in full beside a memory in the list; the rest fold under "N more", so a memory that conflicts with
 * many keeps its row short in a list of 100. Its dialog shows them all.
 */
const SHOWN_IN_LIST = 1;

function ConflictLine({ role, contentOf }: { role: ConflictRole; contentOf: (id: string) => string | undefined }) {
  const other = contentOf(role.otherId);
  const otherRole = role.role === 'newer' ? 'older' : 'newer';
  return (
    <li class={`memory-conflict memory-conflict--${role.role}`} data-conflict-with={role.otherId}>
      <p class="memory-conflict__line">
        <span class={`badge badge--${role.role}`}>{role.role}</span> Conflicts with{' '}
        <MemoryLink id={role.otherId}>
          {other === undefined ? <code>{role.otherId}</code> : `“${shortContent(other)}”`}
        </MemoryLink>
        , which is {otherRole}: this one is the {role.role}.
      </p>
      <p class="memory-conflict__why" title={role.conflict.explanation}>
        {role.conflict.explanation}
      </p>
    </li>
  );
}

/**
 * What a memory conflicts with (contradicts pairs from memories/list), surest first: the other memory, which of the
 * two is newer (a "newer" or "older" badge for this one), and the server's explanation; `shown` of them in full.
 */
export function MemoryConflicts({
  memoryId,
  conflicts,
  contentOf,
  shown = SHOWN_IN_LIST,
}: { memoryId: string; shown?: number } & RelatedMemories) {
  const roles = conflictRolesOf(memoryId, conflicts).sort((a, b) => b.conflict.confidence - a.conflict.confidence);
  if (roles.length === 0) return null;
  const lines = (entries: ConflictRole[]) =>
    entries.map((role) => <ConflictLine key={role.otherId} role={role} contentOf={contentOf} />);
  const folded = roles.slice(shown);
  return (
    <div class="memory-conflicts">
      <ul class="memory-conflicts__list" aria-label="Conflicts">
        {lines(roles.slice(0, shown))}
      </ul>
      {folded.length === 0 ? null : (
        <details class="memory-conflicts__more">
          <summary>
            {folded.length} more {folded.length === 1 ? 'conflict' : 'conflicts'}
          </summary>
          <ul class="memory-conflicts__list">{lines(folded)}</ul>
        </details>
      )}
    </div>
  );
}
