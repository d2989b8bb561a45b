import type { TenantMode } from '@memory-service/client';
import { TENANT_MODES } from '@memory-service/contract';
import { useState } from 'preact/hooks';
import { useAction } from '../../api/use-action.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { SelectField, TextField } from '../../components/fields.js';

interface Draft {
  tenantId: string;
  mode: TenantMode;
  attachDbUrl: string;
  attachDbToken: string;
  attachDbName: string;
}

const EMPTY: Draft = { tenantId: '', mode: 'provision', attachDbUrl: '', attachDbToken: '', attachDbName: '' };
const MODE_OPTIONS = TENANT_MODES.map((mode) => ({
  value: mode,
  label: mode === 'provision' ? 'provision: the server makes a database' : 'attach: an existing libSQL database',
}));

function requestOf(draft: Draft) {
  const optional = (name: 'attachDbUrl' | 'attachDbToken' | 'attachDbName') =>
    draft.mode === 'attach' && draft[name].trim() !== '' ? { [name]: draft[name].trim() } : {};
  return {
    tenantId: draft.tenantId.trim(),
    mode: draft.mode,
    ...optional('attachDbUrl'),
    ...optional('attachDbToken'),
    ...optional('attachDbName'),
  };
}

/** Creates or updates a tenant's database mapping (management/tenant-overrides POST); the token is sent, never shown. */
export function TenantForm({ onSaved }: { onSaved: (message: string) => void }) {
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const save = useAction((client, input: ReturnType<typeof requestOf>) => client.management.tenants.upsert(input));
  const set = (patch: Partial<Draft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    save.reset();
  };
  return (
    <form
      class="panel stack"
      aria-label="Map a tenant"
      onSubmit={async (event) => {
        event.preventDefault();
        const result = await save.run(requestOf(draft));
        if (result === undefined) return;
        setDraft(EMPTY);
        onSaved(`${result.message}: ${result.tenant.tenantId} (${result.tenant.status})`);
      }}
    >
      <h2>Map a tenant to a database</h2>
      <div class="field-row">
        <TextField
          label="Tenant"
          name="tenantId"
          value={draft.tenantId}
          onValue={(tenantId) => set({ tenantId })}
          required
          autocomplete="off"
          spellcheck={false}
          hint="The tenant managed, not the scope of the console."
        />
        <SelectField
          label="Mode"
          name="mode"
          value={draft.mode}
          onValue={(mode) => set({ mode: mode as TenantMode })}
          options={MODE_OPTIONS}
        />
      </div>
      {draft.mode === 'attach' ? (
        <div class="field-row">
          <TextField
            label="Database URL"
            name="attachDbUrl"
            value={draft.attachDbUrl}
            onValue={(attachDbUrl) => set({ attachDbUrl })}
            required
            autocomplete="off"
            spellcheck={false}
            placeholder="libsql://tenant.example.io"
            hint="Without credentials: the token goes in its own field."
          />
          <TextField
            label="Database token (optional)"
            name="attachDbToken"
            type="password"
            value={draft.attachDbToken}
            onValue={(attachDbToken) => set({ attachDbToken })}
            autocomplete="off"
            hint="Stored by the server; never returned."
          />
          <TextField
            label="Database name (optional)"
            name="attachDbName"
            value={draft.attachDbName}
            onValue={(attachDbName) => set({ attachDbName })}
            autocomplete="off"
          />
        </div>
      ) : null}
      {save.error === undefined ? null : <ErrorPanel error={save.error} title="Could not save the mapping" />}
      <div class="actions">
        <button type="submit" class="button button--primary" disabled={save.pending}>
          {save.pending ? 'Saving…' : 'Save mapping'}
        </button>
      </div>
    </form>
  );
}
