import type { SkillFile } from '@memory-service/client';
import { useState } from 'preact/hooks';
import { useAction } from '../../api/use-action.js';
import { useRequest } from '../../api/use-request.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { formatDateTime } from '../../components/format.js';
import { Loading } from '../../components/loading.js';
import { PageHeader } from '../../components/page-header.js';
import { StatGrid, timeStat } from '../../components/stat-grid.js';
import { Link } from '../../router/link.js';
import { consolePath, navigate } from '../../router/router.js';
import { findSkillFile, SKILL_LIST_PAGES_PER_FIND, sourceSessionOf } from './load-skill-files.js';
import { SkillFileForm } from './skill-file-form.js';

function SkillFileDetails({ file }: { file: SkillFile }) {
  const session = sourceSessionOf(file);
  const metadata = Object.keys(file.metadata).length === 0 ? null : JSON.stringify(file.metadata, null, 2);
  return (
    <>
      <StatGrid
        label="Skill file"
        stats={[
          { name: 'Title', value: file.title ?? <span class="muted">none</span>, detail: 'from the first # heading' },
          {
            name: 'Use count',
            value: file.useCount,
            detail:
              file.lastUsedAt === null ? 'never returned by context/get' : `last ${formatDateTime(file.lastUsedAt)}`,
          },
          { name: 'Scope', value: file.scope, detail: file.projectId ?? 'all projects' },
          timeStat('Updated', file.updatedAt),
          timeStat('Created', file.createdAt),
        ]}
      />
      {session === null ? null : (
        <p>
          Promoted from session <Link href={consolePath('sessions', session)}>{session}</Link>.
        </p>
      )}
      <section class="panel stack" aria-labelledby="skill-content-title">
        <h2 id="skill-content-title">Content</h2>
        <pre class="skill-content">{file.content}</pre>
      </section>
      {metadata === null ? null : (
        <details class="panel">
          <summary class="panel__summary">Metadata</summary>
          <pre class="code-block panel__details-body">{metadata}</pre>
        </details>
      )}
    </>
  );
}

/** One skill file by path: its fields and content, Edit in place, Delete after a confirmation. */
export function SkillFileView({ path }: { path: string }) {
  // The API reads skill files only as a list: the page reads it, a page at a time, until its file shows up.
  const files = useRequest((client, signal) => findSkillFile(client, path, signal), [path]);
  const file = files.data?.file ?? undefined;
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const remove = useAction((client) => client.skills.delete({ path }));
  return (
    <>
      <PageHeader
        title={file?.title ?? 'Skill file'}
        description={<code>{path}</code>}
        actions={
          <>
            {file === undefined || editing ? null : (
              <>
                <button type="button" class="button button--primary" onClick={() => setEditing(true)}>
                  Edit
                </button>
                <button type="button" class="button button--danger" onClick={() => setDeleting(true)}>
                  Delete…
                </button>
              </>
            )}
            <Link href={consolePath('skill-files')} class="button">
              All skill files
            </Link>
          </>
        }
      />
      <section class="stack" aria-label="Skill file" aria-busy={files.loading}>
        {files.error === undefined ? null : (
          <ErrorPanel error={files.error} title="Could not read skill files" onRetry={files.reload} />
        )}
        {files.data === undefined ? (
          files.loading ? (
            <Loading label="Loading the skill file" />
          ) : null
        ) : file === undefined ? (
          files.data.stoppedEarly ? (
            <EmptyState title="Not found in the first skill files of this scope">
              <p>
                The console read {files.data.read} skill files ({SKILL_LIST_PAGES_PER_FIND} pages of skills/list)
                without finding this path, and stopped there. <Link href={consolePath('skill-files')}>See all</Link>
              </p>
            </EmptyState>
          ) : (
            <EmptyState title="No skill file at this path in this scope">
              <p>
                It may have been deleted, or live in another scope.{' '}
                <Link href={consolePath('skill-files')}>See all</Link>
              </p>
            </EmptyState>
          )
        ) : editing ? (
          <div class="panel stack">
            <h2>Edit the content</h2>
            <SkillFileForm
              file={file}
              onCancel={() => setEditing(false)}
              onSaved={() => {
                setEditing(false);
                files.reload();
              }}
            />
          </div>
        ) : (
          <SkillFileDetails file={file} />
        )}
      </section>
      <ConfirmDialog
        open={deleting}
        title="Delete skill file?"
        confirmLabel="Delete skill file"
        pending={remove.pending}
        error={remove.error}
        onClose={() => {
          setDeleting(false);
          remove.reset();
        }}
        onConfirm={async () => {
          if ((await remove.run()) === undefined) return;
          setDeleting(false);
          navigate(`${consolePath('skill-files')}?deleted=${encodeURIComponent(path)}`);
        }}
      >
        <p>
          <code>{path}</code> stops being returned by <code>context/get</code> and listed here. The API soft-deletes it
          and has no restore: to bring it back, create it again.
        </p>
      </ConfirmDialog>
    </>
  );
}
