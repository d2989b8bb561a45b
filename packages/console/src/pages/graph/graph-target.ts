import { consolePath } from '../../router/router.js';

/** The kinds of node a picture can be centred on besides a memory. */
export type CentreNodeKind = 'topic' | 'category' | 'entity';

/** What the Graph page is centred on, as its URL says: `?memory=<id>`, or `?node=<label>[&kind=topic]`. */
export type GraphTarget =
  | { kind: 'memory'; id: string }
  | { kind: 'node'; label: string; nodeKind: CentreNodeKind | null };

const NODE_KINDS: readonly CentreNodeKind[] = ['topic', 'category', 'entity'];

/** The target a URL names, or null when it names none. */
export function targetFromParams(params: URLSearchParams): GraphTarget | null {
  const memory = params.get('memory')?.trim();
  if (memory) return { kind: 'memory', id: memory };
  const label = params.get('node')?.trim();
  if (!label) return null;
  const kind = params.get('kind');
  return { kind: 'node', label, nodeKind: NODE_KINDS.find((known) => known === kind) ?? null };
}

/** The Graph page's URL centred on a target. */
export function graphPath(target: GraphTarget): string {
  const params =
    target.kind === 'memory'
      ? new URLSearchParams({ memory: target.id })
      : new URLSearchParams({ node: target.label, ...(target.nodeKind === null ? {} : { kind: target.nodeKind }) });
  return `${consolePath('graph')}?${params.toString()}`;
}
