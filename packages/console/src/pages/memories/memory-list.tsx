import { formatAgo, formatDateTime } from '../../components/format.js';
import { TagList } from '../../components/tag-list.js';
import type { ListedMemory } from './memory-query.js';

/** The undo-list key of a memory's forget. */
export function forgetKey(id: string): string {
  return `forget-memory:${id}`;
}

function MemoryRow({ memory, onOpen }: { memory: ListedMemory; onOpen: (memory: ListedMemory) => void }) {
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
      </div>
      <div class="memory-row__actions">
        <button type="button" class="button button--small" onClick={() => onOpen(memory)} aria-describedby={contentId}>
          Open
        </button>
      </div>
    </li>
  );
}

/** The memories as rows: content, type, layer, tags, when updated; Open for all fields. */
export function MemoryList({ memories, onOpen }: { memories: ListedMemory[]; onOpen: (memory: ListedMemory) => void }) {
  return (
    <ul class="memory-list" aria-label="Memories">
      {memories.map((memory) => (
        <MemoryRow key={memory.id} memory={memory} onOpen={onOpen} />
      ))}
    </ul>
  );
}
