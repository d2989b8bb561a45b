import type { OperationData } from '@memory-service/client';
import { CopyButton } from '../../components/copy-button.js';
import { formatDateTime } from '../../components/format.js';

type KeyEntry = OperationData<'management.keys.post'>['key'];

/**
 * A key just created: shown this once (the server keeps only its hash), with a Copy button, its expiry and a
 * warning; Done hides it for good.
 */
export function NewKeyPanel({ apiKey, entry, onDone }: { apiKey: string; entry: KeyEntry; onDone: () => void }) {
  return (
    <section class="new-key stack" aria-labelledby="new-key-title">
      <h2 id="new-key-title">New API key</h2>
      <p class="warning-note">
        <strong>Copy it now: it is shown only this once.</strong> The server keeps only its hash. If it is lost, create
        another key and revoke this one.
      </p>
      <div class="new-key__value">
        <input
          class="field__input new-key__input"
          readOnly
          value={apiKey}
          aria-label="New API key"
          spellcheck={false}
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton text={apiKey} label="Copy key" />
      </div>
      <p class="muted">
        <code>{entry.preview}</code>
        {entry.expiresAt === null ? ', never expires' : `, expires ${formatDateTime(entry.expiresAt)}`}.
      </p>
      <div class="actions">
        <button type="button" class="button" onClick={onDone}>
          I stored it: hide the key
        </button>
      </div>
    </section>
  );
}
