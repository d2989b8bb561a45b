import type { SkillFile } from '@memory-service/client';
import { useState } from 'preact/hooks';
import { useAction } from '../../api/use-action.js';
import { useRequest } from '../../api/use-request.js';
import { Dialog } from '../../components/dialog.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { countOf, formatAgo, formatDateTime } from '../../components/format.js';
import { Loading } from '../../components/loading.js';
import { PageHeader } from '../../components/page-header.js';
import { Link } from '../../router/link.js';
import { consolePath, navigate } from '../../router/router.js';
import { loadSkillFiles, type SkillFileBatch } from './load-skill-files.js';
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
        <span>used {countOf(file.useCount, 'time')}</span>
        <time dateTime={file.updatedAt} title={formatDateTime(file.updatedAt)}>
          updated {formatAgo(file.updatedAt)}
        </time>
      </p>
    </li>
  );
}

/**
 * The skill files of the scope, and a dialog to create one. The list reads skills/list page after page, up to
 * `SKILL_FILES_PER_LOAD` files; when more follow it says so, and "Load more skill files" reads on from there.
 */
export function SkillFileList({ deletedPath }: { deletedPath: string | null }) {
  const first = useRequest(loadSkillFiles, []);
  // `first.data` with the files "Load more" added to it; a reload, or another scope, starts from the first files again.
  const [more, setMore] = useState<{ extends: SkillFileBatch; batch: SkillFileBatch } | null>(null);
  const loadMore = useAction((client, cursor: string) => loadSkillFiles(client, undefined, cursor));
  const [creating, setCreating] = useState(false);
  const shown = first.data !== undefined && more?.extends === first.data ? more.batch : first.data;
  const files = shown?.files;
  const nextCursor = shown?.nextCursor ?? null;
  const paths = files?.map((file) => file.path) ?? [];

  const readOn = async () => {
    const base = first.data;
    const current = shown;
    if (base === undefined || current === undefined || current.nextCursor === null) return;
    const next = await loadMore.run(current.nextCursor);
    if (next === undefined) return;
    setMore((previous) => {
      // Appended only to the files it read on from (not after a reload, nor twice).
      const now = previous?.extends === base ? previous.batch : base;
      if (now !== current) return previous;
      return { extends: base, batch: { files: [...current.files, ...next.files], nextCursor: next.nextCursor } };
    });
  };
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
        <section class="results" aria-label="Skill file list" aria-busy={first.loading || loadMore.pending}>
          {first.error === undefined ? null : (
            <ErrorPanel error={first.error} title="Could not list skill files" onRetry={first.reload} />
          )}
          {files === undefined ? (
            first.loading ? (
              <Loading label="Loading skill files" />
            ) : null
          ) : files.length === 0 ? (
            <EmptyState title="No skill files in this scope">
              <p>Create one here, or promote an ended session to one from the Sessions page.</p>
            </EmptyState>
          ) : (
            <>
              <p class="results__summary" role="status">
                {files.length} {files.length === 1 ? 'skill file' : 'skill files'}
                {nextCursor === null ? '' : ' shown, by path: more follow'}
              </p>
              <div class="stack">
                <ul class="skill-list" aria-label="Skill files">
                  {files.map((file) => (
                    <SkillFileRow key={file.id} file={file} />
                  ))}
                </ul>
                {loadMore.error === undefined ? null : (
                  <ErrorPanel error={loadMore.error} title="Could not list more skill files" onRetry={readOn} />
                )}
                {nextCursor === null ? null : (
                  <div class="actions">
                    <button type="button" class="button" disabled={loadMore.pending} onClick={readOn}>
                      Load more skill files
                    </button>
                  </div>
                )}
              </div>
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
