import type { ComponentChildren } from 'preact';
import { Link } from '../router/link.js';
import { consolePath } from '../router/router.js';

/** The Memories page with one memory open: `/console/memories?memory=<id>` (found among the newest 100). */
export function memoryHref(id: string): string {
  return `${consolePath('memories')}?memory=${encodeURIComponent(id)}`;
}

/** A link that opens a memory on the Memories page; its id in monospace unless other children are given. */
export function MemoryLink({ id, children }: { id: string; children?: ComponentChildren }) {
  return <Link href={memoryHref(id)}>{children ?? <code>{id}</code>}</Link>;
}

/** "superseded by <id>" with a link to the memory that replaced it; nothing for a live memory. */
export function SupersededBy({ id }: { id: string | null }) {
  if (id === null) return null;
  return (
    <span class="superseded-by" data-testid="superseded-by">
      <span class="badge badge--superseded">superseded</span> by <MemoryLink id={id} />
    </span>
  );
}
