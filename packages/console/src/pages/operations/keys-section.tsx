import type { OperationData } from '@memory-service/client';
import { useState } from 'preact/hooks';
import { useAction } from '../../api/use-action.js';
import { useRequest } from '../../api/use-request.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { Loading } from '../../components/loading.js';
import { StatGrid } from '../../components/stat-grid.js';
import { useSession } from '../../session/session-context.js';
import { CreateKeyForm } from './create-key-form.js';
import { isKeyOf, KeyTable } from './key-table.js';
import { NewKeyPanel } from './new-key-panel.js';

type KeyEntry = OperationData<'management.keys.get'>['keys'][number];
type CreatedKey = OperationData<'management.keys.post'>;

/** API keys (admin token only): the inventory, create a key shown once, revoke one after a confirmation. */
export function KeysSection() {
  const { session } = useSession();
  const inventory = useRequest((client, signal) => client.management.keys.get({ signal }), []);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [revoking, setRevoking] = useState<KeyEntry | null>(null);
  const revoke = useAction((client, keyId: string) => client.management.keys.revoke(keyId));
  const [revoked, setRevoked] = useState<string | null>(null);
  const data = inventory.data;
  const ownKey = revoking !== null && session?.apiKey != null && isKeyOf(revoking, session.apiKey);
  return (
    <div class="stack">
      <CreateKeyForm
        onCreated={(result) => {
          setCreated(result);
          setRevoked(null);
          inventory.reload();
        }}
      />
      {created === null ? null : (
        <NewKeyPanel apiKey={created.apiKey} entry={created.key} onDone={() => setCreated(null)} />
      )}
      <section class="stack" aria-labelledby="key-inventory-title" aria-busy={inventory.loading}>
        <h2 id="key-inventory-title">Key inventory</h2>
        {revoked === null ? null : (
          <p class="success-note" role="status">
            {revoked}
          </p>
        )}
        {inventory.error === undefined ? null : (
          <ErrorPanel error={inventory.error} title="Could not read the keys" onRetry={inventory.reload} />
        )}
        {data === undefined ? (
          inventory.loading ? (
            <Loading label="Loading the keys" />
          ) : null
        ) : (
          <>
            <StatGrid
              label="Key status"
              stats={[
                { name: 'Keys', value: data.keyCount },
                { name: 'Active', value: data.activeKeyCount },
              ]}
            />
            <KeyTable
              keys={data.keys}
              primaryPreview={data.primaryKeyPreview}
              signedInKey={session?.apiKey ?? null}
              onRevoke={setRevoking}
            />
          </>
        )}
      </section>
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this key?"
        confirmLabel="Revoke key"
        pending={revoke.pending}
        error={revoke.error}
        onClose={() => {
          setRevoking(null);
          revoke.reset();
        }}
        onConfirm={async () => {
          if (revoking === null) return;
          const result = await revoke.run(revoking.id);
          if (result === undefined) return;
          setRevoking(null);
          setRevoked(`${result.message}: ${revoking.preview}`);
          inventory.reload();
        }}
      >
        <p>
          <code>{revoking?.preview}</code>: every app that sends it gets <code>401 INVALID_API_KEY</code> from now on. A
          revoked key cannot be restored.
        </p>
        {ownKey ? (
          <p class="warning-note">
            The console signed in with this key: its Memories, Sessions and other runtime pages stop working until you
            sign in with another key.
          </p>
        ) : null}
      </ConfirmDialog>
    </div>
  );
}
