import type { OperationData } from '@memory-service/contract';
import { useId } from 'preact/hooks';
import { countOf, formatDateTime } from '../../components/format.js';
import { Link } from '../../router/link.js';
import { type CentreNodeKind, graphPath } from './graph-target.js';

type GraphStatus = OperationData<'graph.status.get'>;

const CENTRABLE: ReadonlySet<string> = new Set<CentreNodeKind>(['topic', 'category', 'entity']);

function Counts({ counts }: { counts: Record<string, number> }) {
  const entries = Object.entries(counts).sort(([left], [right]) => left.localeCompare(right));
  if (entries.length === 0) return <span class="muted">none</span>;
  return <>{entries.map(([name, count]) => `${name} ${count}`).join(' · ')}</>;
}

/** `graph/status`: on or off, health, what the graph holds, its most connected nodes (links to centre on them), alarms. */
export function GraphStatusPanel({ status }: { status: GraphStatus }) {
  const titleId = useId();
  const { counts } = status;
  return (
    <section class="panel" aria-labelledby={titleId}>
      <h2 id={titleId}>Graph status</h2>
      <dl class="fields">
        <div class="fields__row">
          <dt>graph</dt>
          <dd>
            {status.enabled ? 'on' : 'off'}, health <strong>{status.health}</strong>
            <span class="muted small"> · sampled {formatDateTime(status.sampledAt)}</span>
          </dd>
        </div>
        <div class="fields__row">
          <dt>holds</dt>
          <dd>
            {countOf(counts.memories, 'memory', 'memories')}, {countOf(counts.nodes, 'node')},{' '}
            {countOf(counts.edges, 'edge')}, {countOf(counts.memoryLinks, 'memory link')}
          </dd>
        </div>
        <div class="fields__row">
          <dt>nodes by type</dt>
          <dd>
            <Counts counts={counts.nodesByType} />
          </dd>
        </div>
        <div class="fields__row">
          <dt>edges by type</dt>
          <dd>
            <Counts counts={counts.edgesByType} />
          </dd>
        </div>
        <div class="fields__row">
          <dt>most connected</dt>
          <dd>
            {status.topConnectedNodes.length === 0 ? (
              <span class="muted">none yet</span>
            ) : (
              <ul class="top-nodes">
                {status.topConnectedNodes.map((node) => (
                  <li key={node.id}>
                    {CENTRABLE.has(node.type) ? (
                      <Link
                        href={graphPath({ kind: 'node', label: node.label, nodeKind: node.type as CentreNodeKind })}
                      >
                        {node.label}
                      </Link>
                    ) : (
                      node.label
                    )}{' '}
                    <span class="muted small">
                      {node.type}, {node.degree}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
        <div class="fields__row">
          <dt>alarms</dt>
          <dd>
            {status.alarms.length === 0 ? (
              'none'
            ) : (
              <ul class="code-list">
                {status.alarms.map((alarm) => (
                  <li key={alarm.code}>
                    <code>{alarm.code}</code> ({alarm.severity}) {alarm.message}
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
        {status.recentErrors.length === 0 ? null : (
          <div class="fields__row">
            <dt>recent errors</dt>
            <dd>
              <ul class="code-list">
                {status.recentErrors.map((error) => (
                  <li key={`${error.code}-${error.createdAt}`}>
                    <code>{error.code}</code> {error.message}{' '}
                    <span class="muted small">{formatDateTime(error.createdAt)}</span>
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        )}
      </dl>
    </section>
  );
}
