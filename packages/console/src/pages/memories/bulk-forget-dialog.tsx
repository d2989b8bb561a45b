import { LIMITS, MEMORY_TYPES, type MemoryType } from '@memory-service/contract';
import { useState } from 'preact/hooks';
import { useAction } from '../../api/use-action.js';
import { Dialog } from '../../components/dialog.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { CheckboxField, TextField } from '../../components/fields.js';
import { parseList } from '../../components/format.js';

interface Filters {
  types: MemoryType[];
  tags: string;
  olderThanDays: string;
  pattern: string;
  all: boolean;
}

const NO_FILTERS: Filters = { types: [], tags: '', olderThanDays: '', pattern: '', all: false };

/** The request body of these filters (the server says what is wrong with it, e.g. no filter at all). */
function requestOf(filters: Filters) {
  if (filters.all) return { all: true };
  const tags = parseList(filters.tags);
  const days = filters.olderThanDays.trim();
  return {
    filters: {
      ...(filters.types.length === 0 ? {} : { types: filters.types }),
      ...(tags.length === 0 ? {} : { tags }),
      ...(days === '' ? {} : { olderThanDays: Number(days) }),
      ...(filters.pattern.trim() === '' ? {} : { pattern: filters.pattern.trim() }),
    },
  };
}

function BulkForgetForm({ onForgotten }: { onForgotten: () => void }) {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const request = requestOf(filters);
  const preview = useAction((client, body: typeof request) => client.memories.bulkForget({ ...body, dryRun: true }));
  const forget = useAction((client, body: typeof request) => client.memories.bulkForget({ ...body, dryRun: false }));
  // The preview belongs to the filters it was made with; any change asks for a new one.
  const [previewed, setPreviewed] = useState<{ key: string; count: number; items: PreviewItem[] } | null>(null);
  const [forgotten, setForgotten] = useState<number | null>(null);
  const key = JSON.stringify(request);
  const current = previewed !== null && previewed.key === key ? previewed : null;
  const set = (patch: Partial<Filters>) => {
    setFilters((old) => ({ ...old, ...patch }));
    preview.reset();
    forget.reset();
  };

  if (forgotten !== null) {
    return (
      <div class="stack" role="status">
        <p>
          Forgot {forgotten} {forgotten === 1 ? 'memory' : 'memories'}. They stay soft-deleted until memories/vacuum
          purges them.
        </p>
      </div>
    );
  }
  return (
    <form
      class="stack"
      aria-label="Bulk forget"
      onSubmit={async (event) => {
        event.preventDefault();
        const result = await preview.run(request);
        if (result?.dryRun) setPreviewed({ key, count: result.count, items: result.memories });
      }}
    >
      <p>
        Choose what to forget, preview it with a dry run, then confirm. Bulk forget has no undo in the console: the API
        restores one memory at a time (memories/restore), not a bulk forget.
      </p>
      <fieldset class="fieldset" disabled={filters.all}>
        <legend>Types</legend>
        <div class="checkbox-row">
          {MEMORY_TYPES.map((type) => (
            <CheckboxField
              key={type}
              label={type}
              name="types"
              checked={filters.types.includes(type)}
              onChecked={(checked) =>
                set({ types: checked ? [...filters.types, type] : filters.types.filter((item) => item !== type) })
              }
            />
          ))}
        </div>
      </fieldset>
      <div class="field-row">
        <TextField
          label="Tags"
          name="tags"
          value={filters.tags}
          onValue={(tags) => set({ tags })}
          disabled={filters.all}
          hint="Any of these, comma-separated."
        />
        <TextField
          label="Older than (days)"
          name="olderThanDays"
          type="number"
          min={LIMITS.olderThanDays.min}
          max={LIMITS.olderThanDays.max}
          value={filters.olderThanDays}
          onValue={(olderThanDays) => set({ olderThanDays })}
          disabled={filters.all}
        />
        <TextField
          label="Content pattern"
          name="pattern"
          value={filters.pattern}
          onValue={(pattern) => set({ pattern })}
          disabled={filters.all}
          maxLength={LIMITS.bulkForgetPattern.max}
          hint="* matches any run of characters, ? one character."
        />
      </div>
      <CheckboxField
        label="Everything in this scope (no other filter)"
        name="all"
        checked={filters.all}
        onChecked={(all) => set({ ...NO_FILTERS, all })}
      />
      {preview.error === undefined ? null : <ErrorPanel error={preview.error} title="Could not preview" />}
      <div class="actions">
        <button type="submit" class="button" disabled={preview.pending}>
          {preview.pending ? 'Previewing…' : 'Preview (dry run)'}
        </button>
      </div>
      {current === null ? null : <BulkPreview count={current.count} items={current.items} />}
      {forget.error === undefined ? null : <ErrorPanel error={forget.error} title="Could not forget" />}
      {current === null || current.count === 0 ? null : (
        <div class="actions">
          <button
            type="button"
            class="button button--danger"
            disabled={forget.pending}
            onClick={async () => {
              const result = await forget.run(request);
              if (result !== undefined) {
                setForgotten(result.count);
                onForgotten();
              }
            }}
          >
            {forget.pending ? 'Forgetting…' : `Forget ${current.count} ${current.count === 1 ? 'memory' : 'memories'}`}
          </button>
        </div>
      )}
    </form>
  );
}

interface PreviewItem {
  id: string;
  type: string;
  contentPreview: string;
}

function BulkPreview({ count, items }: { count: number; items: PreviewItem[] }) {
  if (count === 0) return <EmptyState title="Nothing matches these filters" />;
  return (
    <section class="bulk-preview" aria-label="Dry-run preview">
      <p class="bulk-preview__count" role="status">
        {count} {count === 1 ? 'memory' : 'memories'} would be forgotten:
      </p>
      <ul class="bulk-preview__list">
        {items.map((item) => (
          <li key={item.id}>
            <span class={`badge badge--${item.type}`}>{item.type}</span> {item.contentPreview}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Bulk forget: filters, a dry-run preview of what would go, then a confirm that sends the same filters. */
export function BulkForgetDialog({
  open,
  onClose,
  onForgotten,
}: {
  open: boolean;
  onClose: () => void;
  onForgotten: () => void;
}) {
  return (
    <Dialog open={open} title="Bulk forget" onClose={onClose} wide>
      <BulkForgetForm onForgotten={onForgotten} />
    </Dialog>
  );
}
