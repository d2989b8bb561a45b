import { useEffect, useState } from 'preact/hooks';
import { EmptyState } from './components/empty-state.js';
import { PageHeader } from './components/page-header.js';
import { RequiresCredential } from './components/requires-credential.js';
import { ScopeDialog } from './components/scope-dialog.js';
import { UndoToasts } from './components/undo-toasts.js';
import { DEFAULT_PAGE_SLUG, pageAt, pages } from './pages.js';
import { Link } from './router/link.js';
import { consolePath, navigate, useConsoleLocation } from './router/router.js';
import { useSession } from './session/session-context.js';

function ScopeSummary() {
  const { session } = useSession();
  const scope = session?.scope ?? {};
  const parts = [
    ['tenant', scope.tenantId],
    ['user', scope.userId],
    ['project', scope.projectId],
  ] as const;
  return (
    <dl class="scope-summary" aria-label="Current scope">
      {parts.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{value ?? <span class="muted">default</span>}</dd>
        </div>
      ))}
    </dl>
  );
}

function NotFound() {
  return (
    <>
      <PageHeader title="Page not found" />
      <EmptyState title="The console has no page at this address">
        <Link href={consolePath(DEFAULT_PAGE_SLUG)}>Go to Memories</Link>
      </EmptyState>
    </>
  );
}

/**
 * The signed-in layout: a header (scope, sign out), the nav built from `pages`, the page for the current path, and
 * the undo toasts. On a narrow screen the nav folds behind a Menu button.
 */
export function AppShell() {
  const location = useConsoleLocation();
  const { session, signOut } = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  const [scopeOpen, setScopeOpen] = useState(false);
  const page = pageAt(location);
  const pageKey = location.segments.join('/');

  useEffect(() => {
    if (location.segments.length === 0) navigate(consolePath(DEFAULT_PAGE_SLUG), { replace: true });
  }, [location.segments.length]);

  // A new page: close the folded nav, name the tab, and move focus to the title so screen readers announce it.
  useEffect(() => {
    setMenuOpen(false);
    document.title = `${page?.title ?? 'Not found'} · Memory service console`;
    const title = document.querySelector<HTMLElement>('[data-page-title]');
    if (title !== null && document.activeElement !== document.body) title.focus();
  }, [pageKey, page]);

  const hasCredential = page === undefined || session?.[page.credential] !== null;
  const Page = page?.component;
  return (
    <div class={menuOpen ? 'shell shell--menu-open' : 'shell'}>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <button
          type="button"
          class="button button--quiet topbar__menu"
          aria-expanded={menuOpen}
          aria-controls="console-nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          Menu
        </button>
        <p class="topbar__brand">
          <Link href={consolePath(DEFAULT_PAGE_SLUG)}>
            Memory service<span class="topbar__brand-suffix"> console</span>
          </Link>
        </p>
        <div class="topbar__scope">
          <ScopeSummary />
          <button type="button" class="button button--small" onClick={() => setScopeOpen(true)}>
            Change scope
          </button>
        </div>
        <button type="button" class="button button--small topbar__signout" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <nav id="console-nav" class="nav" aria-label="Console pages">
        <ul>
          {pages.map((entry) => (
            <li key={entry.slug}>
              <Link href={consolePath(entry.slug)} class="nav__link" aria-current={entry === page ? 'page' : undefined}>
                {entry.title}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" class="main" tabIndex={-1}>
        {page === undefined || Page === undefined ? (
          <NotFound />
        ) : hasCredential ? (
          <Page key={page.slug} subPath={location.segments.slice(1)} searchParams={location.searchParams} />
        ) : (
          <RequiresCredential title={page.title} credential={page.credential} />
        )}
      </main>
      <UndoToasts />
      <ScopeDialog open={scopeOpen} onClose={() => setScopeOpen(false)} />
    </div>
  );
}
