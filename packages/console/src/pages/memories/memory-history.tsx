import type { MemoryVersion } from '@memory-service/contract';
import { useRequest } from '../../api/use-request.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { formatDateTime } from '../../components/format.js';
import { Loading } from '../../components/loading.js';
import { MemoryLink } from '../../components/memory-link.js';
import { TagList } from '../../components/tag-list.js';

/** How many earlier versions the dialog reads at once (memories/{id}/history pages further with its cursor). */
const HISTORY_PAGE = 20;

const CHANGE_LABELS: Record<MemoryVersion['change'], string> = {
  edited: 'edited',
  superseded: 'superseded',
  merged: 'merged',
};

function Time({ iso }: { iso: string }) {
  return <time dateTime={iso}>{formatDateTime(iso)}</time>;
}

/** What replaced a version: an edit of the same memory, or another memory (linked). */
function ReplacedBy({ version, memoryId }: { version: MemoryVersion; memoryId: string }) {
  if (version.change === 'edited') {
    return (
      <>
        replaced by an edit
        {version.memoryId === memoryId ? null : (
          <>
            {' '}
            of <MemoryLink id={version.memoryId} />
          </>
        )}
      </>
    );
  }
  return (
    <>
      <MemoryLink id={version.memoryId} /> {version.change === 'merged' ? 'merged into' : 'superseded by'}{' '}
      {version.supersededBy === memoryId ? 'this memory' : <MemoryLink id={version.supersededBy} />}
    </>
  );
}

/**
 * A memory's earlier versions, newest first (memories/{id}/history): each wording an edit replaced and each memory
 * it superseded or absorbed, with its content, when it held and when and by what it was replaced.
 */
export function MemoryHistory({ memoryId }: { memoryId: string }) {
  const history = useRequest(
    (client, signal) => client.memories.history(memoryId, { limit: HISTORY_PAGE }, { signal }),
    [memoryId],
  );
  return (
    <section class="memory-history" aria-label="History" aria-busy={history.loading}>
      <h3 class="memory-history__title">History</h3>
      {history.error !== undefined ? (
        <ErrorPanel error={history.error} title="Could not read the history" onRetry={history.reload} />
      ) : history.data === undefined ? (
        <Loading label="Reading the history" />
      ) : history.data.versions.length === 0 ? (
        <p class="muted small" data-testid="no-history">
          No earlier versions: it has not been edited, and it superseded no other memory.
        </p>
      ) : (
        <ol class="memory-history__list">
          {history.data.versions.map((version) => (
            <li
              key={`${version.change}|${version.memoryId}|${version.replacedAt}`}
              class="memory-version"
              data-change={version.change}
              data-memory-id={version.memoryId}
            >
              <div class="memory-version__head">
                <span class={`badge badge--${version.change === 'edited' ? 'older' : 'superseded'}`}>
                  {CHANGE_LABELS[version.change]}
                </span>{' '}
                <span class="memory-version__when">
                  <Time iso={version.validFrom} /> – <Time iso={version.replacedAt} />
                </span>
              </div>
              <p class="memory-version__content">{version.content}</p>
              <p class="memory-version__meta muted small">
                <ReplacedBy version={version} memoryId={memoryId} /> on <Time iso={version.replacedAt} />
                {' · '}
                {version.type}, {version.layer}
                {version.tags.length === 0 ? null : (
                  <>
                    {' · '}
                    <TagList tags={version.tags} />
                  </>
                )}
              </p>
            </li>
          ))}
        </ol>
      )}
      {history.data?.nextCursor == null ? null : (
        <p class="muted small">
          The {HISTORY_PAGE} most recent versions; older ones are read with the history route's cursor.
        </p>
      )}
    </section>
  );
}
