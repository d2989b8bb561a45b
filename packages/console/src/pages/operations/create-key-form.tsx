import type { OperationData } from '@memory-service/client';
import { useState } from 'preact/hooks';
import { useAction } from '../../api/use-action.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { SelectField } from '../../components/fields.js';

const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;
// The route takes an expiry from 1 minute to 365 days ahead.
const LIFETIMES = [
  { value: String(HOUR), label: '1 hour' },
  { value: String(DAY), label: '1 day' },
  { value: String(7 * DAY), label: '7 days' },
  { value: String(30 * DAY), label: '30 days' },
  { value: String(90 * DAY), label: '90 days' },
  { value: String(365 * DAY - HOUR), label: '1 year' },
];

/** Creates an API key (management/keys POST) expiring after the chosen lifetime. */
export function CreateKeyForm({ onCreated }: { onCreated: (result: OperationData<'management.keys.post'>) => void }) {
  const [lifetime, setLifetime] = useState(String(30 * DAY));
  const create = useAction((client, expiresAt: string) => client.management.keys.create({ expiresAt }));
  return (
    <form
      class="panel stack"
      aria-label="Create an API key"
      onSubmit={async (event) => {
        event.preventDefault();
        const result = await create.run(new Date(Date.now() + Number(lifetime)).toISOString());
        if (result !== undefined) onCreated(result);
      }}
    >
      <h2>Create an API key</h2>
      <div class="create-key__row">
        <SelectField
          label="Expires after"
          name="lifetime"
          value={lifetime}
          onValue={(value) => {
            setLifetime(value);
            create.reset();
          }}
          options={LIFETIMES}
          hint="Counted from now; the key stops working at that time."
        />
        <button type="submit" class="button button--primary" disabled={create.pending}>
          {create.pending ? 'Creating…' : 'Create key'}
        </button>
      </div>
      {create.error === undefined ? null : <ErrorPanel error={create.error} title="Could not create the key" />}
    </form>
  );
}
