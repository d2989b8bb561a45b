import type { Memory, MemoryLayer, MemoryType } from '@memory-service/client';
import { defaultLayer, LIMITS } from '@memory-service/contract';
import { useState } from 'preact/hooks';
import { useAction } from '../../api/use-action.js';
import { Dialog } from '../../components/dialog.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { TextAreaField, TextField } from '../../components/fields.js';
import { parseList } from '../../components/format.js';
import { TypeLayerFields } from './type-layer-fields.js';

interface Draft {
  content: string;
  type: MemoryType;
  layer: MemoryLayer;
  tags: string;
  category: string;
  /** A `datetime-local` value (the browser's time zone), or '' for "now". */
  occurredAt: string;
}

const EMPTY_DRAFT: Draft = { content: '', type: 'note', layer: 'long_term', tags: '', category: '', occurredAt: '' };

/** What the add did: a new memory, or the live one with the same content that the service returned instead. */
export interface AddedMemory {
  memory: Memory;
  deduplicated: boolean;
}

/** The memories/add request for a draft: only the fields the person filled in. */
function addRequest(draft: Draft) {
  const tags = parseList(draft.tags);
  const category = draft.category.trim();
  // `datetime-local` has no zone: Date reads it in the browser's, and toISOString() sends it as UTC.
  const occurredAt = draft.occurredAt === '' ? undefined : new Date(draft.occurredAt).toISOString();
  return {
    content: draft.content,
    type: draft.type,
    layer: draft.layer,
    ...(tags.length === 0 ? {} : { tags }),
    ...(category === '' ? {} : { category }),
    ...(occurredAt === undefined ? {} : { occurredAt }),
  };
}

/**
 * Adds a memory in the header's scope (memories/add). The service folds a memory it already holds (same content,
 * same kind): the page then says so and opens the one it kept instead of listing a copy.
 */
export function AddMemoryDialog({
  open,
  onClose,
  onAdded,
}: {
  open: boolean;
  onClose: () => void;
  onAdded: (added: AddedMemory) => void;
}) {
  const [draft, setDraft] = useState<Draft>(EMPTY_DRAFT);
  const [layerPicked, setLayerPicked] = useState(false);
  const add = useAction((client, request: ReturnType<typeof addRequest>) => client.memories.add(request));
  const set = (patch: Partial<Draft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    add.reset();
  };
  const close = () => {
    setDraft(EMPTY_DRAFT);
    setLayerPicked(false);
    add.reset();
    onClose();
  };
  return (
    <Dialog open={open} title="Add a memory" onClose={close} wide>
      <form
        class="stack"
        aria-label="Add a memory"
        onSubmit={async (event) => {
          event.preventDefault();
          const result = await add.run(addRequest(draft));
          if (result === undefined) return;
          setDraft(EMPTY_DRAFT);
          setLayerPicked(false);
          onAdded({ memory: result.memory, deduplicated: result.deduplicated === true });
        }}
      >
        <TextAreaField
          label="Content"
          name="content"
          value={draft.content}
          onValue={(content) => set({ content })}
          rows={5}
          required
          maxLength={LIMITS.memoryContent.max}
          hint="One statement worth remembering, e.g. “Deploys go out on Tuesdays after the standup.”"
        />
        <TypeLayerFields
          type={draft.type}
          layer={draft.layer}
          // The layer follows the type (a rule is served as a rule) until the person picks one.
          onType={(type) => set({ type, ...(layerPicked ? {} : { layer: defaultLayer(type) }) })}
          onLayer={(layer) => {
            setLayerPicked(true);
            set({ layer });
          }}
          typeHint="A rule is followed in every answer; facts, decisions and notes are recalled when relevant."
        />
        <div class="field-row">
          <TextField
            label="Tags"
            name="tags"
            value={draft.tags}
            onValue={(tags) => set({ tags })}
            placeholder="deploys, billing"
            hint="Comma-separated, optional."
          />
          <TextField
            label="Category"
            name="category"
            value={draft.category}
            onValue={(category) => set({ category })}
            maxLength={LIMITS.category.max}
            hint="Optional."
          />
          <TextField
            label="Happened at"
            name="occurredAt"
            type="datetime-local"
            value={draft.occurredAt}
            onValue={(occurredAt) => set({ occurredAt })}
            hint="When it happened or was said; empty for now. “Yesterday” in the text is read from this date."
          />
        </div>
        {add.error === undefined ? null : <ErrorPanel error={add.error} title="Could not add the memory" />}
        <div class="actions">
          <button type="submit" class="button button--primary" disabled={add.pending || draft.content.trim() === ''}>
            {add.pending ? 'Adding…' : 'Add memory'}
          </button>
          <button type="button" class="button" onClick={close}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
