import { useEffect, useState } from 'preact/hooks';
import { useAction } from '../../api/use-action.js';
import { useClient } from '../../api/use-client.js';
import { useRequest } from '../../api/use-request.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { Loading } from '../../components/loading.js';
import { PageHeader } from '../../components/page-header.js';
import type { PageProps } from '../../pages.js';
import { Link } from '../../router/link.js';
import { consolePath, navigate } from '../../router/router.js';
import { offerUndo } from '../../undo/undo-list.js';
import { type AddedMemory, AddMemoryDialog } from './add-memory-dialog.js';
import { BulkForgetDialog } from './bulk-forget-dialog.js';
import type { RelatedMemories } from './memory-conflicts.js';
import { MemoryDialog } from './memory-dialog.js';
import { MemoryFilters } from './memory-filters.js';
import { forgetKey, MemoryList } from './memory-list.js';
import {
  appendPage,
  EMPTY_QUERY,
  type ListedMemory,
  loadMemories,
  type MemoryQuery,
  type MemoryResults,
} from './memory-query.js';
import { OpenByIdForm } from './open-by-id-form.js';
import { SearchTrace } from './search-trace.js';
import { useLinkedMemory } from './use-linked-memory.js';

function preview(content: string): string {
  return content.length > 48 ? `${content.slice(0, 47)}…` : content;
}

/**
 * Memories: list with filters (page after page with Load more), full-text and hybrid search, each memory's dates
 * and conflicts, one memory with all its fields (also opened by a link, `?memory=<id>`, or by pasting its id), add,
 * edit, forget (at once, with Undo through memories/restore), and bulk forget with a dry-run preview first.
 */
export function MemoriesPage({ searchParams }: PageProps) {
  const client = useClient();
  const [query, setQuery] = useState<MemoryQuery>(EMPTY_QUERY);
  const firstPage = useRequest((api, signal) => loadMemories(api, query, signal), [query]);
  // The memories/list pages after the first that Load more read; a new query starts again from the first.
  const [laterPages, setLaterPages] = useState<MemoryResults[]>([]);
  useEffect(() => setLaterPages([]), [query]);
  const loadMore = useAction((api, cursor: string) => loadMemories(api, query, new AbortController().signal, cursor));
  const results = {
    ...firstPage,
    // A reload starts from the first page again: an add or a forget shifts where each later page begins.
    reload: () => {
      setLaterPages([]);
      firstPage.reload();
    },
    data:
      firstPage.data === undefined
        ? undefined
        : laterPages.reduce((loaded, page) => appendPage(loaded, page, query), firstPage.data),
  };
  const [adding, setAdding] = useState(false);
  const [addNotice, setAddNotice] = useState<AddedMemory | null>(null);
  const [selected, setSelected] = useState<ListedMemory | null>(null);
  // The memory a "superseded by" or "Conflicts with" link names (`?memory=<id>`) opens in the dialog.
  const linked = useLinkedMemory(searchParams.get('memory'), results.data);
  // Following a link from an open memory shows the linked one instead.
  useEffect(() => setSelected(null), [linked.id]);
  const [bulkOpen, setBulkOpen] = useState(false);
  const [forgotten, setForgotten] = useState<ReadonlySet<string>>(new Set());
  const forgetAction = useAction((client, memory: ListedMemory) => client.memories.forget({ id: memory.id }));

  // A forget that went through hides the row until the reload that follows it lands.
  const memories = (results.data?.memories ?? []).filter((memory) => !forgotten.has(memory.id));
  // The dialog shows the latest copy of the selected memory (after an edit and reload).
  const current =
    selected === null ? null : (results.data?.memories.find((memory) => memory.id === selected.id) ?? selected);
  const searching = query.text.trim() !== '';
  const byId = new Map(
    [...linked.listed, ...(results.data?.fetchedMemories ?? [])].map((memory) => [memory.id, memory]),
  );
  const contentOf = (id: string) => byId.get(id)?.content;
  const related: RelatedMemories = { conflicts: results.data?.conflicts ?? [], contentOf };
  const dialogMemory = current ?? linked.memory;
  const dialogRelated: RelatedMemories = current === null ? { conflicts: linked.conflicts, contentOf } : related;
  const closeDialog = () => {
    forgetAction.reset();
    setSelected(null);
    if (linked.id !== null) navigate(consolePath('memories'), { replace: true });
  };

  const forget = async (memory: ListedMemory) => {
    if ((await forgetAction.run(memory)) === undefined) return;
    closeDialog();
    setForgotten((ids) => new Set(ids).add(memory.id));
    results.reload();
    offerUndo({
      key: forgetKey(memory.id),
      label: `Forgot “${preview(memory.content)}”`,
      undo: () => client.memories.restore({ id: memory.id }),
      onUndone: () => {
        setForgotten((ids) => {
          const next = new Set(ids);
          next.delete(memory.id);
          return next;
        });
        results.reload();
      },
    });
  };

  return (
    <>
      <PageHeader
        title="Memories"
        description="What the service remembers in this scope. Forget soft-deletes at once; Undo in the toast restores the memory."
        actions={
          <>
            <button type="button" class="button button--primary" onClick={() => setAdding(true)}>
              Add memory…
            </button>
            <button type="button" class="button" onClick={() => setBulkOpen(true)}>
              Bulk forget…
            </button>
          </>
        }
      />
      <MemoryFilters query={query} onQuery={setQuery} />
      <OpenByIdForm onOpen={(id) => navigate(`${consolePath('memories')}?memory=${encodeURIComponent(id)}`)} />
      {addNotice === null ? null : (
        <div class="notice notice--with-actions" role="status">
          <p>
            {addNotice.deduplicated
              ? 'Already remembered: the service kept the memory it had with the same content instead of storing a copy.'
              : 'Added.'}{' '}
            <Link href={`${consolePath('memories')}?memory=${encodeURIComponent(addNotice.memory.id)}`}>Open it</Link>
          </p>
          <button type="button" class="button button--quiet button--small" onClick={() => setAddNotice(null)}>
            Dismiss
          </button>
        </div>
      )}

      {linked.missing ? (
        <p class="notice" role="status">
          No memory <code>{linked.id}</code> in this scope: it may have been forgotten, or belong to another user or
          project. <Link href={consolePath('memories')}>Dismiss</Link>
        </p>
      ) : null}
      {linked.error === undefined ? null : (
        <ErrorPanel error={linked.error} title="Could not look up the linked memory" onRetry={linked.reload} />
      )}
      <section class="results" aria-label={searching ? 'Search results' : 'Memory list'} aria-busy={results.loading}>
        {results.error === undefined ? null : (
          <ErrorPanel
            error={results.error}
            title={searching ? 'Search failed' : 'Could not list memories'}
            onRetry={results.reload}
          />
        )}
        {results.data === undefined ? (
          results.loading ? (
            <Loading label={searching ? 'Searching' : 'Loading memories'} />
          ) : null
        ) : (
          <>
            <div class="results__summary">
              <p role="status">
                {results.loading
                  ? 'Refreshing…'
                  : `${memories.length} ${memories.length === 1 ? 'memory' : 'memories'}` +
                    (results.data.fetched === memories.length ? '' : ` (of ${results.data.fetched} returned)`)}
              </p>
              {results.data.trace === null ? null : <SearchTrace trace={results.data.trace} />}
            </div>
            {memories.length === 0 ? (
              <EmptyState title={searching ? 'No memory matches this search' : 'No memories in this scope'}>
                <p>
                  {searching
                    ? 'Try other words, the hybrid strategy, or fewer filters.'
                    : 'Memories appear here once an app stores them (memories/add, or the AI SDK middleware). Check the scope in the header, or reset the filters.'}
                </p>
              </EmptyState>
            ) : (
              <MemoryList memories={memories} onOpen={setSelected} related={related} />
            )}
            {results.data.nextCursor === null ? null : (
              <div class="actions">
                <button
                  type="button"
                  class="button"
                  disabled={loadMore.pending}
                  onClick={async () => {
                    const cursor = results.data?.nextCursor;
                    if (cursor === null || cursor === undefined) return;
                    const page = await loadMore.run(cursor);
                    if (page !== undefined) setLaterPages((pages) => [...pages, page]);
                  }}
                >
                  {loadMore.pending ? 'Loading…' : 'Load more'}
                </button>
                <span class="muted small">Older memories follow.</span>
              </div>
            )}
            {loadMore.error === undefined ? null : (
              <ErrorPanel error={loadMore.error} title="Could not load more memories" />
            )}
          </>
        )}
      </section>
      <MemoryDialog
        memory={dialogMemory}
        related={dialogRelated}
        onClose={closeDialog}
        onSaved={() => {
          results.reload();
          linked.reload();
        }}
        onForget={forget}
        forgetting={forgetAction.pending}
        forgetError={forgetAction.error}
      />
      <BulkForgetDialog open={bulkOpen} onClose={() => setBulkOpen(false)} onForgotten={results.reload} />
      <AddMemoryDialog
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={(added) => {
          setAdding(false);
          setAddNotice(added);
          results.reload();
        }}
      />
    </>
  );
}
