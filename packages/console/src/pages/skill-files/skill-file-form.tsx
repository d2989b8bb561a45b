import type { SkillFile } from '@memory-service/client';
import { LIMITS } from '@memory-service/contract';
import { useState } from 'preact/hooks';
import { useAction } from '../../api/use-action.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { TextAreaField, TextField } from '../../components/fields.js';

const TEMPLATE = '# Title of the procedure\n\n1. First step\n2. Second step\n';

/**
 * Creates a skill file (path and content) or edits one's content (skills/upsert). The API has no title field: the
 * content's first `#` heading is the title; and no rename: a new path is a new file.
 */
export function SkillFileForm({
  file,
  existingPaths = [],
  onSaved,
  onCancel,
}: {
  /** The file to edit; absent to create one. */
  file?: SkillFile;
  existingPaths?: readonly string[];
  onSaved: (file: SkillFile) => void;
  onCancel: () => void;
}) {
  const [path, setPath] = useState(file?.path ?? '');
  const [content, setContent] = useState(file?.content ?? TEMPLATE);
  const save = useAction((client, input: { path: string; content: string }) => client.skills.upsert(input));
  const trimmedPath = path.trim();
  const replaces = file === undefined && existingPaths.includes(trimmedPath);
  const changed = file === undefined || content !== file.content;
  return (
    <form
      class="stack"
      aria-label={file === undefined ? 'New skill file' : 'Edit skill file'}
      onSubmit={async (event) => {
        event.preventDefault();
        if (!changed) return;
        const result = await save.run({ path: file?.path ?? trimmedPath, content });
        if (result !== undefined) onSaved(result.skillFile);
      }}
    >
      {file === undefined ? (
        <TextField
          label="Path"
          name="path"
          value={path}
          onValue={(value) => {
            setPath(value);
            save.reset();
          }}
          maxLength={LIMITS.skillPath.max}
          required
          spellcheck={false}
          placeholder="skills/deploy.md"
          hint={
            replaces ? (
              <strong>A skill file exists at this path: saving replaces its content.</strong>
            ) : (
              'Where the file lives, e.g. skills/deploy.md; it cannot be renamed later.'
            )
          }
        />
      ) : null}
      <TextAreaField
        label="Content"
        name="content"
        value={content}
        onValue={(value) => {
          setContent(value);
          save.reset();
        }}
        rows={14}
        required
        maxLength={LIMITS.skillContent.max}
        hint="Markdown; the first # heading is the file's title."
      />
      {save.error === undefined ? null : <ErrorPanel error={save.error} title="Could not save the skill file" />}
      <div class="actions">
        <button type="submit" class="button button--primary" disabled={!changed || save.pending}>
          {save.pending ? 'Saving…' : file === undefined ? 'Create skill file' : 'Save changes'}
        </button>
        <button type="button" class="button" onClick={onCancel}>
          Cancel
        </button>
        {changed ? null : <span class="muted small">Nothing changed yet.</span>}
      </div>
    </form>
  );
}
