import { formatAgo, formatDateTime } from '../../components/format.js';
import { MemoryDates } from '../../components/memory-dates.js';
import { SupersededBy } from '../../components/memory-link.js';
import { TagList } from '../../components/tag-list.js';
import { MemoryConflicts, type RelatedMemories } from './memory-conflicts.js';
import type { ListedMemory } from './memory-query.js';

/** The undo-list key of a memory's forget. */
export function forgetKey(id: string): string {
  return `forget-memory:${id}`;
}

function MemoryRow({
  memory,
  onOpen,
  related,
}: {
  memory: ListedMemory;
  onOpen: (memory: ListedMemory) => void;
  related: RelatedMemories;
}) {
  const contentId = `memory-${memory.id}-content`;
  return (
    <li class="memory-row" data-memory-id={memory.id}>
      <p class="memory-row__content" id={contentId}>
        {memory.content}
      </p>
      <div class="memory-row__meta">
        <span class={`badge badge--${memory.type}`}>{memory.type}</span>
        <span class="memory-row__layer">{memory.layer.replace('_', ' ')}</span>
        {memory.category === null ? null : <span class="memory-row__category">{memory.category}</span>}
        <TagList tags={memory.tags} />
        <time class="memory-row__time" dateTime={memory.updatedAt} title={formatDateTime(memory.updatedAt)}>
          updated {formatAgo(memory.updatedAt)}
        </time>
        {memory.score === undefined ? null : (
          <span class="memory-row__score">
            score {memory.score.toFixed(3)} · {memory.source}
          </span>
        )}
        <SupersededBy id={memory.supersededBy} />
      </div>
      <div class="memory-row__details">
        <MemoryDates memory={memory} />
        <MemoryConflicts memoryId={memory.id} conflicts={related.conflicts} contentOf={related.contentOf} />
      </div>
      <div class="memory-row__actions">
        <button type="button" class="button button--small" onClick={() => onOpen(memory)} aria-describedby={contentId}>
          Open
        </button>
      </div>
    </li>
  );
}

/**
 * The memories as rows: content, type, layer, tags, when updated, when what it says happened and was written, the
 * resolved relative dates, what superseded it, and what it conflicts with; Open for all fields.
 */
export function MemoryList({
  memories,
  onOpen,
  related,
}: {
  memories: ListedMemory[];
  onOpen: (memory: ListedMemory) => void;
  related: RelatedMemories;
}) {
  return (
    <ul class="memory-list" aria-label="Memories">
      {memories.map((memory) => (
        <MemoryRow key={memory.id} memory={memory} onOpen={onOpen} related={related} />
      ))}
    </ul>
  );
}
