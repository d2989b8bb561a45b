import type { ComponentType } from 'preact';
import { ContextPreviewPage } from './pages/context-preview/context-preview-page.js';
import { GraphPage } from './pages/graph/graph-page.js';
import { MemoriesPage } from './pages/memories/memories-page.js';
import { OperationsPage } from './pages/operations/operations-page.js';
import { SessionsPage } from './pages/sessions/sessions-page.js';
import { SkillFilesPage } from './pages/skill-files/skill-files-page.js';
import type { ConsoleLocation } from './router/router.js';

/** What the shell passes to every page. */
export interface PageProps {
  /** The path segments after the page's own (`/console/sessions/abc` gives `['abc']` to Sessions). */
  subPath: string[];
  searchParams: URLSearchParams;
}

/** Which credential a page's calls need; the shell shows a sign-in hint instead of the page when it is missing. */
export type PageCredential = 'apiKey' | 'adminToken';

/** One entry of the console's navigation. */
export interface PageDefinition {
  /** The URL segment: `/console/<slug>`. */
  slug: string;
  /** The nav label and the document title. */
  title: string;
  credential: PageCredential;
  component: ComponentType<PageProps>;
}

/**
 * The console's pages, in nav order: the only list (the nav, the router and the titles all read it). To add a
 * page, write `pages/<slug>/<slug>-page.tsx` and add one entry here.
 */
export const pages: readonly PageDefinition[] = [
  { slug: 'memories', title: 'Memories', credential: 'apiKey', component: MemoriesPage },
  { slug: 'context', title: 'Context preview', credential: 'apiKey', component: ContextPreviewPage },
  { slug: 'graph', title: 'Graph', credential: 'apiKey', component: GraphPage },
  { slug: 'sessions', title: 'Sessions', credential: 'apiKey', component: SessionsPage },
  { slug: 'skill-files', title: 'Skill files', credential: 'apiKey', component: SkillFilesPage },
  { slug: 'operations', title: 'Operations', credential: 'adminToken', component: OperationsPage },
];

/** The page `/console` opens. */
export const DEFAULT_PAGE_SLUG = 'memories';

/** The page a location shows, or undefined for an unknown path. */
export function pageAt(location: ConsoleLocation): PageDefinition | undefined {
  const [slug = DEFAULT_PAGE_SLUG] = location.segments;
  return pages.find((page) => page.slug === slug);
}
