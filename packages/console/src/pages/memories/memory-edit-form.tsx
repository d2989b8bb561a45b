import type { MemoryLayer, MemoryType } from '@memory-service/client';
import { LIMITS } from '@memory-service/contract';
import { useState } from 'preact/hooks';
import { useAction } from '../../api/use-action.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { TextAreaField, TextField } from '../../components/fields.js';
import { parseList } from '../../components/format.js';
import type { ListedMemory } from './memory-query.js';
import { TypeLayerFields } from './type-layer-fields.js';

interface Draft {
  content: string;
  type: MemoryType;
  layer: MemoryLayer;
  tags: string;
  category: string;
}

/** The fields that differ from the memory: memories/edit takes only what changes. */
function changes(memory: ListedMemory, draft: Draft) {
  const tags = parseList(draft.tags);
  const category = draft.category.trim();
  return {
    ...(draft.content !== memory.content ? { content: draft.content } : {}),
    ...(draft.type !== memory.type ? { type: draft.type } : {}),
    ...(draft.layer !== memory.layer ? { layer: draft.layer } : {}),
    ...(tags.join('\u0000') !== memory.tags.join('\u0000') ? { tags } : {}),
    // The API cannot remove a category, only replace it: an emptied field leaves it as it is.
    ...(category !== '' && category !== memory.category ? { category } : {}),
  };
}

/** Edits a memory's content, type, layer, tags and category; calls `onSaved` after the server took the change. */
export function MemoryEditForm({
  memory,
  onSaved,
  onCancel,
}: {
  memory: ListedMemory;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<Draft>({
    content: memory.content,
    type: memory.type,
    layer: memory.layer,
    tags: memory.tags.join(', '),
    category: memory.category ?? '',
  });
  const save = useAction((client, edit: ReturnType<typeof changes>) =>
    client.memories.edit({ id: memory.id, ...edit }),
  );
  const set = (patch: Partial<Draft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    save.reset();
  };
  const edit = changes(memory, draft);
  const changed = Object.keys(edit).length > 0;
  return (
    <form
      class="stack"
      aria-label="Edit memory"
      onSubmit={async (event) => {
        event.preventDefault();
        if (!changed) return;
        if ((await save.run(edit)) !== undefined) onSaved();
      }}
    >
      <TextAreaField
        label="Content"
        name="content"
        value={draft.content}
        onValue={(content) => set({ content })}
        rows={6}
        required
        maxLength={LIMITS.memoryContent.max}
      />
      <TypeLayerFields
        type={draft.type}
        layer={draft.layer}
        onType={(type) => set({ type })}
        onLayer={(layer) => set({ layer })}
      />
      <TextField
        label="Tags"
        name="tags"
        value={draft.tags}
        onValue={(tags) => set({ tags })}
        hint="Comma-separated; empty removes every tag."
      />
      <TextField
        label="Category"
        name="category"
        value={draft.category}
        onValue={(category) => set({ category })}
        maxLength={LIMITS.category.max}
        hint="The API can replace a category but not remove it."
      />
      {save.error === undefined ? null : <ErrorPanel error={save.error} title="Could not save" />}
      <div class="actions">
        <button type="submit" class="button button--primary" disabled={!changed || save.pending}>
          {save.pending ? 'Saving…' : 'Save changes'}
        </button>
        <button type="button" class="button" onClick={onCancel}>
          Cancel
        </button>
        {changed ? null : <span class="muted small">Nothing changed yet.</span>}
      </div>
    </form>
  );
}
