import { formatAgo, formatDateTime } from '../../components/format.js';
import { TagList } from '../../components/tag-list.js';
import { type UndoableEntry, undoUndoable } from '../../undo/undo-queue.js';
import type { ListedMemory } from './memory-query.js';

/** The undo-queue key of a memory's forget. */
export function forgetKey(id: string): string {
  return `forget-memory:${id}`;
}

function MemoryRow({
  memory,
  pending,
  onOpen,
}: {
  memory: ListedMemory;
  pending: UndoableEntry | undefined;
  onOpen: (memory: ListedMemory) => void;
}) {
  const contentId = `memory-${memory.id}-content`;
  const forgetting = pending?.status === 'waiting' || pending?.status === 'sending';
  return (
    <li class={forgetting ? 'memory-row memory-row--forgetting' : 'memory-row'} data-memory-id={memory.id}>
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
        {forgetting ? (
          <>
            <span class="memory-row__pending" role="status">
              Forgetting…
            </span>
            <button
              type="button"
              class="button button--small"
              onClick={() => undoUndoable(forgetKey(memory.id))}
              aria-describedby={contentId}
            >
              Undo forget
            </button>
          </>
        ) : (
          <button
            type="button"
            class="button button--small"
            onClick={() => onOpen(memory)}
            aria-describedby={contentId}
          >
            Open
          </button>
        )}
      </div>
    </li>
  );
}

/** The memories as rows: content, type, layer, tags, when updated; Open for all fields, Undo while a forget waits. */
export function MemoryList({
  memories,
  pending,
  onOpen,
}: {
  memories: ListedMemory[];
  pending: ReadonlyMap<string, UndoableEntry>;
  onOpen: (memory: ListedMemory) => void;
}) {
  return (
    <ul class="memory-list" aria-label="Memories">
      {memories.map((memory) => (
        <MemoryRow key={memory.id} memory={memory} pending={pending.get(forgetKey(memory.id))} onOpen={onOpen} />
      ))}
    </ul>
  );
}
