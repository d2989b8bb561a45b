import type { ConflictPair } from '@memory-service/client';
import { conflictRolesOf, shortContent } from '../../components/conflict-roles.js';
import { MemoryLink } from '../../components/memory-link.js';
import { InText } from './in-text.js';

type ContentOf = (id: string) => string | undefined;

/** A returned memory named by its text, linked to it on the Memories page (quotes as text: a `<q>`'s generated
 * quotes are outside the link's hit area in Chromium). */
function MemoryRef({ id, contentOf }: { id: string; contentOf: ContentOf }) {
  const content = contentOf(id);
  return <MemoryLink id={id}>{content === undefined ? <code>{id}</code> : `“${shortContent(content)}”`}</MemoryLink>;
}

/**
 * Where a returned memory stands in each conflict of the bundle: the newer is marked "newer" (the service serves it
 * above the older), the older "older", superseded in practice by the newer.
 */
export function ConflictMarks({
  memoryId,
  conflicts,
  contentOf,
}: {
  memoryId: string;
  conflicts: readonly ConflictPair[];
  contentOf: ContentOf;
}) {
  const roles = conflictRolesOf(memoryId, conflicts);
  if (roles.length === 0) return null;
  return (
    <ul class="returned-item__conflicts" aria-label="Conflicts">
      {roles.map(({ otherId, role }) => (
        <li key={otherId} class={`returned-item__conflict returned-item__conflict--${role}`}>
          <span class={`badge badge--${role}`}>{role}</span>{' '}
          {role === 'newer' ? (
            <>
              contradicts the older <MemoryRef id={otherId} contentOf={contentOf} /> and is served above it
            </>
          ) : (
            <>
              superseded in practice by the newer <MemoryRef id={otherId} contentOf={contentOf} />
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/** One conflict of the bundle: the older and the newer memory, why they conflict, and what the service suggests. */
export function ConflictItem({
  conflict,
  inText,
  contentOf,
}: {
  conflict: ConflictPair;
  /** Whether the budgeted system message explains it. */
  inText: boolean;
  contentOf: ContentOf;
}) {
  return (
    <li class="returned-item" data-conflict={`${conflict.memoryAId}|${conflict.memoryBId}`}>
      <p class="returned-item__content">
        <span class="badge badge--older">older</span> <MemoryRef id={conflict.memoryAId} contentOf={contentOf} />{' '}
        {conflict.edgeType} <span class="badge badge--newer">newer</span>{' '}
        <MemoryRef id={conflict.memoryBId} contentOf={contentOf} />
      </p>
      <p class="returned-item__meta">
        <span>confidence {conflict.confidence.toFixed(2)}</span>
        <InText shown={inText} />
      </p>
      <p class="returned-item__explanation">{conflict.explanation}</p>
      <p class="returned-item__suggestion">
        <strong>Suggestion:</strong> {conflict.suggestion}
      </p>
    </li>
  );
}
