import type { CheckpointKind, CheckpointRole, OperationData } from '@memory-service/client';
import { CHECKPOINT_KINDS, CHECKPOINT_ROLES, LIMITS } from '@memory-service/contract';
import { useState } from 'preact/hooks';
import { useAction } from '../../api/use-action.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { SelectField, TextAreaField } from '../../components/fields.js';

const ROLE_OPTIONS = CHECKPOINT_ROLES.map((role) => ({ value: role, label: role }));
const KIND_OPTIONS = CHECKPOINT_KINDS.map((kind) => ({ value: kind, label: kind.replace('_', ' ') }));

/** Appends a checkpoint (a turn, a summary, a decision...) to an active session through sessions/checkpoint. */
export function CheckpointForm({
  sessionId,
  onAdded,
}: {
  sessionId: string;
  onAdded: (checkpoint: OperationData<'sessions.checkpoint'>) => void;
}) {
  const [role, setRole] = useState<CheckpointRole>('user');
  const [kind, setKind] = useState<CheckpointKind>('message');
  const [content, setContent] = useState('');
  const add = useAction((client, input: { role: CheckpointRole; kind: CheckpointKind; content: string }) =>
    client.sessions.checkpoint({ sessionId, ...input }),
  );
  return (
    <form
      class="panel stack"
      aria-label="Add a checkpoint"
      onSubmit={async (event) => {
        event.preventDefault();
        const result = await add.run({ role, kind, content });
        if (result === undefined) return;
        setContent('');
        onAdded(result);
      }}
    >
      <h2>Add a checkpoint</h2>
      <div class="field-row">
        <SelectField
          label="Role"
          name="role"
          value={role}
          onValue={(value) => setRole(value as CheckpointRole)}
          options={ROLE_OPTIONS}
        />
        <SelectField
          label="Kind"
          name="kind"
          value={kind}
          onValue={(value) => setKind(value as CheckpointKind)}
          options={KIND_OPTIONS}
          hint="The latest summary is carried over when the session is compacted."
        />
      </div>
      <TextAreaField
        label="Content"
        name="content"
        value={content}
        onValue={(value) => {
          setContent(value);
          add.reset();
        }}
        rows={3}
        required
        maxLength={LIMITS.checkpointContent.max}
      />
      {add.error === undefined ? null : <ErrorPanel error={add.error} title="Could not add the checkpoint" />}
      <div class="actions">
        <button type="submit" class="button" disabled={add.pending}>
          {add.pending ? 'Adding…' : 'Add checkpoint'}
        </button>
      </div>
    </form>
  );
}
