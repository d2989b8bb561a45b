import type { SessionSnapshot } from '@memory-service/client';
import { DEFAULTS, LIMITS } from '@memory-service/contract';
import { useState } from 'preact/hooks';
import { useAction } from '../../api/use-action.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { TextField } from '../../components/fields.js';
import { Link } from '../../router/link.js';
import { consolePath } from '../../router/router.js';

interface Draft {
  path: string;
  title: string;
  procedureKey: string;
  maxSteps: string;
}

/** Promotes the snapshot to a procedural skill file (skills/promote) and links to the file. */
export function PromoteForm({ sessionId, snapshot }: { sessionId: string; snapshot: SessionSnapshot }) {
  const [draft, setDraft] = useState<Draft>({
    path: `skills/${snapshot.slug}.md`,
    title: '',
    procedureKey: '',
    maxSteps: String(DEFAULTS.maxSteps),
  });
  const promote = useAction((client, input: Parameters<typeof client.skills.promote>[0]) =>
    client.skills.promote(input),
  );
  const [promoted, setPromoted] = useState<{ path: string; message: string } | null>(null);
  const set = (patch: Partial<Draft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    promote.reset();
  };
  return (
    <form
      class="panel stack"
      aria-label="Promote to a skill file"
      onSubmit={async (event) => {
        event.preventDefault();
        const title = draft.title.trim();
        const procedureKey = draft.procedureKey.trim();
        const result = await promote.run({
          sessionId,
          snapshotId: snapshot.id,
          path: draft.path.trim(),
          maxSteps: Number(draft.maxSteps),
          ...(title === '' ? {} : { title }),
          ...(procedureKey === '' ? {} : { procedureKey }),
        });
        if (result !== undefined) setPromoted({ path: result.skillFile.path, message: result.message });
      }}
    >
      <h2>Promote to a skill file</h2>
      <p class="muted">
        Turns this snapshot into a procedure (its steps from the checkpoints) that <code>context/get</code> returns
        beside memories. A file already at the path is replaced.
      </p>
      <div class="field-row">
        <TextField
          label="Path"
          name="path"
          value={draft.path}
          onValue={(path) => set({ path })}
          maxLength={LIMITS.skillPath.max}
          required
          spellcheck={false}
        />
        <TextField
          label="Title (optional)"
          name="title"
          value={draft.title}
          onValue={(title) => set({ title })}
          maxLength={LIMITS.promoteTitle.max}
          hint="The session's title when empty."
        />
      </div>
      <div class="field-row">
        <TextField
          label="Procedure key (optional)"
          name="procedureKey"
          value={draft.procedureKey}
          onValue={(procedureKey) => set({ procedureKey })}
          maxLength={LIMITS.procedureKey.max}
          spellcheck={false}
          hint="Derived from the title when empty."
        />
        <TextField
          label="Most steps"
          name="maxSteps"
          type="number"
          min={LIMITS.maxSteps.min}
          max={LIMITS.maxSteps.max}
          value={draft.maxSteps}
          onValue={(maxSteps) => set({ maxSteps })}
          required
        />
      </div>
      {promote.error === undefined ? null : <ErrorPanel error={promote.error} title="Could not promote" />}
      <div class="actions">
        <button type="submit" class="button button--primary" disabled={promote.pending}>
          {promote.pending ? 'Promoting…' : 'Promote to skill file'}
        </button>
      </div>
      {promoted === null ? null : (
        <p class="success-note" role="status">
          {promoted.message}.{' '}
          <Link href={consolePath('skill-files', promoted.path)}>Open skill file {promoted.path}</Link>
        </p>
      )}
    </form>
  );
}
