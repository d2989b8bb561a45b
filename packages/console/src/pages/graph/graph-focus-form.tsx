import type { Memory } from '@memory-service/client';
import { LIMITS } from '@memory-service/contract';
import { useState } from 'preact/hooks';
import type { RequestState } from '../../api/use-request.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { SelectField, TextField } from '../../components/fields.js';
import { navigate } from '../../router/router.js';
import { type GraphTarget, graphPath } from './graph-target.js';

function preview(content: string): string {
  return content.length > 70 ? `${content.slice(0, 69)}…` : content;
}

/**
 * What to centre the picture on: one of the newest memories, or an entity, topic or category by name (any text
 * works: it is searched, and centred on the node of that name when there is one).
 */
export function GraphFocusForm({
  target,
  recent,
}: {
  target: GraphTarget | null;
  /** The newest memories of the scope (the page loads them once). */
  recent: RequestState<{ memories: Memory[] }>;
}) {
  const [memoryId, setMemoryId] = useState(target?.kind === 'memory' ? target.id : '');
  const [label, setLabel] = useState(target?.kind === 'node' ? target.label : '');
  const memories = recent.data?.memories ?? [];
  const options = [
    {
      value: '',
      label: recent.loading
        ? 'Loading memories…'
        : memories.length === 0
          ? 'No memories in this scope'
          : 'Choose a memory',
    },
    ...memories.map((memory) => ({ value: memory.id, label: preview(memory.content) })),
  ];
  return (
    <div class="filters graph-focus">
      {recent.error === undefined ? null : (
        <ErrorPanel error={recent.error} title="Could not list memories" onRetry={recent.reload} />
      )}
      <div class="graph-focus__forms">
        <form
          class="graph-focus__form"
          aria-label="Centre on a memory"
          onSubmit={(event) => {
            event.preventDefault();
            if (memoryId !== '') navigate(graphPath({ kind: 'memory', id: memoryId }));
          }}
        >
          <SelectField
            label="A memory"
            name="memory"
            value={memoryId}
            onValue={setMemoryId}
            options={options}
            hint="The 100 newest in this scope."
          />
          <button type="submit" class="button button--primary" disabled={memoryId === ''}>
            Show its graph
          </button>
        </form>
        <form
          class="graph-focus__form"
          aria-label="Centre on an entity"
          onSubmit={(event) => {
            event.preventDefault();
            if (label.trim() !== '') navigate(graphPath({ kind: 'node', label: label.trim(), nodeKind: null }));
          }}
        >
          <TextField
            label="Or an entity, topic or category"
            name="node"
            type="search"
            value={label}
            onValue={setLabel}
            maxLength={LIMITS.query.max}
            placeholder="ui, preferences, Vim…"
            hint="Searched as text; centred on the node of that name if there is one."
          />
          <button type="submit" class="button" disabled={label.trim() === ''}>
            Show
          </button>
        </form>
      </div>
    </div>
  );
}
