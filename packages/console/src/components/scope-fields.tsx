import { TextField } from './fields.js';

/** The scope as three text inputs edit it; '' means not set. */
export interface ScopeDraft {
  tenantId: string;
  userId: string;
  projectId: string;
}

/** The tenant, user and project inputs, with what each one selects. */
export function ScopeFields({ draft, onDraft }: { draft: ScopeDraft; onDraft: (draft: ScopeDraft) => void }) {
  return (
    <fieldset class="fieldset">
      <legend>Scope (applied to every call)</legend>
      <div class="field-row">
        <TextField
          label="Tenant"
          name="tenantId"
          value={draft.tenantId}
          onValue={(tenantId) => onDraft({ ...draft, tenantId })}
          hint="The tenant's own database; empty uses the key owner's."
          autocomplete="off"
        />
        <TextField
          label="User"
          name="userId"
          value={draft.userId}
          onValue={(userId) => onDraft({ ...draft, userId })}
          hint="End user inside the tenant."
          autocomplete="off"
        />
        <TextField
          label="Project"
          name="projectId"
          value={draft.projectId}
          onValue={(projectId) => onDraft({ ...draft, projectId })}
          hint="Narrows retrieval; not a security boundary."
          autocomplete="off"
        />
      </div>
    </fieldset>
  );
}
