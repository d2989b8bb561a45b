import { useState } from 'preact/hooks';
import { TextField } from '../../components/fields.js';

/** Opens one memory by its id (memories/{id}, whatever its age or the filters), as a link to it would. */
export function OpenByIdForm({ onOpen }: { onOpen: (id: string) => void }) {
  const [id, setId] = useState('');
  return (
    <form
      class="filters__row open-by-id"
      aria-label="Open a memory by id"
      onSubmit={(event) => {
        event.preventDefault();
        const trimmed = id.trim();
        if (trimmed !== '') onOpen(trimmed);
      }}
    >
      <TextField
        label="Memory id"
        name="memoryId"
        value={id}
        onValue={setId}
        placeholder="e.g. 3f2c9a1e-…"
        spellcheck={false}
        autocomplete="off"
        hint="Paste an id from a log, a trace or the API to open that memory."
      />
      <div class="actions">
        <button type="submit" class="button" disabled={id.trim() === ''}>
          Open
        </button>
      </div>
    </form>
  );
}
