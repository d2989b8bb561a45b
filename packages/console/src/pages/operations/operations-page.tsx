import type { ComponentType } from 'preact';
import { EmptyState } from '../../components/empty-state.js';
import { PageHeader } from '../../components/page-header.js';
import type { PageProps } from '../../pages.js';
import { Link } from '../../router/link.js';
import { consolePath } from '../../router/router.js';
import { EmbeddingsSection } from './embeddings-section.js';
import { KeysSection } from './keys-section.js';
import { ObservabilitySection } from './observability-section.js';
import { TenantsSection } from './tenants-section.js';

/** One part of the Operations page, at `/console/operations/<slug>`. */
interface OperationsSection {
  slug: string;
  title: string;
  component: ComponentType;
}

const SECTIONS: readonly OperationsSection[] = [
  { slug: 'keys', title: 'API keys', component: KeysSection },
  { slug: 'tenants', title: 'Tenants', component: TenantsSection },
  { slug: 'embeddings', title: 'Embeddings', component: EmbeddingsSection },
  { slug: 'observability', title: 'Observability', component: ObservabilitySection },
];

/**
 * Operations (admin token): API keys, tenants and their databases, embedding usage and backfill, and observability
 * charts, one section per sub-path (`/console/operations` opens API keys).
 */
export function OperationsPage({ subPath }: PageProps) {
  const [slug = SECTIONS[0]!.slug] = subPath;
  const section = SECTIONS.find((entry) => entry.slug === slug);
  const Section = section?.component;
  return (
    <>
      <PageHeader
        title="Operations"
        description="What the operator runs: API keys, tenant databases, embedding usage and backfill, and observability over time."
      />
      <nav class="section-tabs" aria-label="Operations sections">
        <ul>
          {SECTIONS.map((entry) => (
            <li key={entry.slug}>
              <Link
                href={consolePath('operations', entry.slug)}
                class="section-tabs__link"
                aria-current={entry === section ? 'page' : undefined}
              >
                {entry.title}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {Section === undefined ? (
        <EmptyState title="Operations has no such section">
          <p>Pick one of the sections above.</p>
        </EmptyState>
      ) : (
        <Section key={slug} />
      )}
    </>
  );
}
