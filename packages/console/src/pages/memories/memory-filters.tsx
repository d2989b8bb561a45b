import { useState } from 'preact/hooks';
import { SelectField, TextField } from '../../components/fields.js';
import {
  EMPTY_QUERY,
  LAYER_OPTIONS,
  type MemoryQuery,
  maxLimit,
  SORT_OPTIONS,
  TYPE_OPTIONS,
  UPDATED_OPTIONS,
} from './memory-query.js';

const STRATEGY_OPTIONS = [
  { value: 'hybrid', label: 'Hybrid' },
  { value: 'lexical', label: 'Full text (lexical)' },
];

/** The search box and the filters; the page loads when the form is submitted, not on every key. */
export function MemoryFilters({ query, onQuery }: { query: MemoryQuery; onQuery: (query: MemoryQuery) => void }) {
  const [draft, setDraft] = useState(query);
  const set = (patch: Partial<MemoryQuery>) => setDraft((current) => ({ ...current, ...patch }));
  const searching = draft.text.trim() !== '';
  return (
    <search aria-label="Find memories">
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          onQuery({ ...draft, limit: Math.min(draft.limit, maxLimit(draft)) });
        }}
      >
        <div class="filters__search">
          <TextField
            label="Search"
            name="query"
            type="search"
            value={draft.text}
            onValue={(text) => set({ text })}
            placeholder="Words or a question; empty lists everything"
            maxLength={500}
          />
          <SelectField
            label="Strategy"
            name="strategy"
            value={draft.strategy}
            onValue={(strategy) => set({ strategy: strategy as MemoryQuery['strategy'] })}
            options={STRATEGY_OPTIONS}
            hint="Hybrid adds meaning (embeddings) to the words."
          />
        </div>
        <div class="filters__row">
          <SelectField
            label="Type"
            name="type"
            value={draft.type}
            onValue={(type) => set({ type: type as MemoryQuery['type'] })}
            options={TYPE_OPTIONS}
          />
          <SelectField
            label="Layer"
            name="layer"
            value={draft.layer}
            onValue={(layer) => set({ layer: layer as MemoryQuery['layer'] })}
            options={LAYER_OPTIONS}
          />
          <TextField
            label="Tags"
            name="tags"
            value={draft.tags}
            onValue={(tags) => set({ tags })}
            placeholder="deploys, billing"
            hint="Any of these, comma-separated."
          />
          <SelectField
            label="Updated"
            name="updated"
            value={String(draft.updatedWithinDays)}
            onValue={(value) => set({ updatedWithinDays: Number(value) })}
            options={UPDATED_OPTIONS}
          />
          <SelectField
            label="Order"
            name="sort"
            value={draft.sort}
            onValue={(sort) => set({ sort: sort as MemoryQuery['sort'] })}
            options={SORT_OPTIONS}
          />
          <TextField
            label="Limit"
            name="limit"
            type="number"
            min={1}
            max={maxLimit(draft)}
            value={String(draft.limit)}
            onValue={(value) => set({ limit: Number(value) })}
            hint={searching ? 'Search returns at most 50.' : 'List returns at most 100.'}
          />
        </div>
        <div class="actions">
          <button type="submit" class="button button--primary">
            {searching ? 'Search' : 'Apply filters'}
          </button>
          <button
            type="button"
            class="button"
            onClick={() => {
              setDraft(EMPTY_QUERY);
              onQuery(EMPTY_QUERY);
            }}
          >
            Reset
          </button>
        </div>
      </form>
    </search>
  );
}
