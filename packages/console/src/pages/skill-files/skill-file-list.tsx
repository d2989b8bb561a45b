import type { SkillFile } from '@memory-service/client';
import { LIMITS } from '@memory-service/contract';
import { useState } from 'preact/hooks';
import { useRequest } from '../../api/use-request.js';
import { Dialog } from '../../components/dialog.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { formatAgo, formatDateTime } from '../../components/format.js';
import { Loading } from '../../components/loading.js';
import { PageHeader } from '../../components/page-header.js';
import { Link } from '../../router/link.js';
import { consolePath, navigate } from '../../router/router.js';
import { loadSkillFiles } from './load-skill-files.js';
import { SkillFileForm } from './skill-file-form.js';

function SkillFileRow({ file }: { file: SkillFile }) {
  return (
    <li class="skill-row">
      <Link href={consolePath('skill-files', file.path)} class="skill-row__path">
        {file.path}
      </Link>
      <p class="skill-row__title">{file.title ?? <span class="muted">No title (no # heading)</span>}</p>
      <p class="skill-row__meta">
        <span class="badge">{file.scope}</span>
        <span>
          used {file.useCount} {file.useCount === 1 ? 'time' : 'times'}
        </span>
        <time dateTime={file.updatedAt} title={formatDateTime(file.updatedAt)}>
          updated {formatAgo(file.updatedAt)}
        </time>
      </p>
    </li>
  );
}

/** The skill files of the scope, and a dialog to create one. */
export function SkillFileList({ deletedPath }: { deletedPath: string | null }) {
  const files = useRequest(loadSkillFiles, []);
  const [creating, setCreating] = useState(false);
  const paths = files.data?.map((file) => file.path) ?? [];
  return (
    <>
      <PageHeader
        title="Skill files"
        description="Procedures and how-tos the agent gets beside memories (context/get), by path."
        actions={
          <button type="button" class="button button--primary" onClick={() => setCreating(true)}>
            New skill file
          </button>
        }
      />
      <div class="stack">
        {deletedPath === null ? null : (
          <p class="success-note" role="status">
            Deleted <code>{deletedPath}</code>. The API soft-deletes skill files and has no restore.
          </p>
        )}
        <section class="results" aria-label="Skill file list" aria-busy={files.loading}>
          {files.error === undefined ? null : (
            <ErrorPanel error={files.error} title="Could not list skill files" onRetry={files.reload} />
          )}
          {files.data === undefined ? (
            files.loading ? (
              <Loading label="Loading skill files" />
            ) : null
          ) : files.data.length === 0 ? (
            <EmptyState title="No skill files in this scope">
              <p>Create one here, or promote an ended session to one from the Sessions page.</p>
            </EmptyState>
          ) : (
            <>
              <p class="results__summary" role="status">
                {files.data.length} {files.data.length === 1 ? 'skill file' : 'skill files'}
                {files.data.length === LIMITS.skillListLimit.max ? ' (the most skills/list returns)' : ''}
              </p>
              <ul class="skill-list" aria-label="Skill files">
                {files.data.map((file) => (
                  <SkillFileRow key={file.id} file={file} />
                ))}
              </ul>
            </>
          )}
        </section>
      </div>
      <Dialog open={creating} title="New skill file" onClose={() => setCreating(false)} wide>
        <SkillFileForm
          existingPaths={paths}
          onCancel={() => setCreating(false)}
          onSaved={(file) => {
            setCreating(false);
            navigate(consolePath('skill-files', file.path));
          }}
        />
      </Dialog>
    </>
  );
}
