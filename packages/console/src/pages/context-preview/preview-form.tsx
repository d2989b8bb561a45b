import { LIMITS } from '@memory-service/contract';
import { useState } from 'preact/hooks';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../components/fields.js';
import {
  GRAPH_DEPTH_OPTIONS,
  MAX_CONTEXT_TOKENS,
  MODE_OPTIONS,
  type PreviewRequest,
  STRATEGY_OPTIONS,
} from './preview-request.js';

/** The query and the middleware's `context.get` options; submitting asks for the bundle (nothing runs per key). */
export function PreviewForm({
  initial,
  pending,
  onSubmit,
}: {
  initial: PreviewRequest;
  pending: boolean;
  onSubmit: (request: PreviewRequest) => void;
}) {
  const [draft, setDraft] = useState(initial);
  const set = (patch: Partial<PreviewRequest>) => setDraft((current) => ({ ...current, ...patch }));
  return (
    <form
      class="filters preview-form"
      aria-label="Context request"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(draft);
      }}
    >
      <TextAreaField
        label="Query"
        name="query"
        rows={2}
        value={draft.query}
        onValue={(query) => set({ query })}
        maxLength={LIMITS.query.max}
        hint="The user's message, as the middleware would send it. Empty: the call made when a prompt has no user text."
      />
      <div class="filters__row">
        <TextField
          label="Limit"
          name="limit"
          type="number"
          min={LIMITS.retrievalLimit.min}
          max={LIMITS.retrievalLimit.max}
          value={String(draft.limit)}
          onValue={(value) => set({ limit: Number(value) })}
        />
        <SelectField
          label="Strategy"
          name="strategy"
          value={draft.strategy}
          onValue={(strategy) => set({ strategy: strategy as PreviewRequest['strategy'] })}
          options={STRATEGY_OPTIONS}
        />
        <SelectField
          label="Graph depth"
          name="graphDepth"
          value={String(draft.graphDepth)}
          onValue={(value) => set({ graphDepth: Number(value) })}
          options={GRAPH_DEPTH_OPTIONS}
        />
        <SelectField
          label="Mode"
          name="mode"
          value={draft.mode}
          onValue={(mode) => set({ mode: mode as PreviewRequest['mode'] })}
          options={MODE_OPTIONS}
        />
        <TextField
          label="Token budget"
          name="maxContextTokens"
          type="number"
          min={1}
          max={MAX_CONTEXT_TOKENS}
          value={String(draft.maxContextTokens)}
          onValue={(value) => set({ maxContextTokens: Number(value) })}
          hint="maxContextTokens"
        />
      </div>
      <div class="actions preview-form__actions">
        <CheckboxField
          label="Include rules"
          name="includeRules"
          checked={draft.includeRules}
          onChecked={(includeRules) => set({ includeRules })}
        />
        <CheckboxField
          label="Include skill files"
          name="includeSkillFiles"
          checked={draft.includeSkillFiles}
          onChecked={(includeSkillFiles) => set({ includeSkillFiles })}
        />
        <button type="submit" class="button button--primary preview-form__submit" disabled={pending}>
          {pending ? 'Previewing…' : 'Preview context'}
        </button>
      </div>
    </form>
  );
}
