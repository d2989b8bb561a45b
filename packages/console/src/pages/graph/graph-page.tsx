import { LIMITS } from '@memory-service/contract';
import { useState } from 'preact/hooks';
import { useRequest } from '../../api/use-request.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { Loading } from '../../components/loading.js';
import { PageHeader } from '../../components/page-header.js';
import type { PageProps } from '../../pages.js';
import { navigate } from '../../router/router.js';
import { GraphFocusForm } from './graph-focus-form.js';
import type { GraphNode } from './graph-model.js';
import { GraphNodeDialog } from './graph-node-dialog.js';
import { GraphStatusPanel } from './graph-status-panel.js';
import { graphPath, targetFromParams } from './graph-target.js';
import { loadNeighbourhood } from './load-neighbourhood.js';
import { NeighbourhoodView } from './neighbourhood-view.js';
import { RolloutPanel } from './rollout-panel.js';

/**
 * Graph: the neighbourhood of a memory or an entity as a picture (built from context/get with graph depth 2 and
 * memories/list, as the API has no neighbourhood route), the rollout mode and quality gate, and the graph status.
 */
export function GraphPage({ searchParams }: PageProps) {
  const key = searchParams.toString();
  const target = targetFromParams(searchParams);
  const recent = useRequest((client, signal) => client.memories.list({ limit: LIMITS.listLimit.max }, { signal }), []);
  const picture = useRequest(
    (client, signal) => (target === null ? Promise.resolve(null) : loadNeighbourhood(client, target, signal)),
    [key],
  );
  const rollout = useRequest((client, signal) => client.graph.rollout.get({}, { signal }), []);
  const status = useRequest((client, signal) => client.graph.status({}, { signal }), []);
  const [opened, setOpened] = useState<GraphNode | null>(null);

  const open = (node: GraphNode) => {
    if (node.kind === 'memory') {
      if (node.memory !== undefined) setOpened(node);
      return;
    }
    navigate(graphPath({ kind: 'node', label: node.label, nodeKind: node.kind === 'query' ? null : node.kind }));
  };

  return (
    <>
      <PageHeader
        title="Graph"
        description="The neighbourhood of a memory or an entity as a picture: the memories linked to it, the nodes that link them and the edge types, with the rollout mode and the quality gate."
      />
      <GraphFocusForm key={key} target={target} recent={recent} />
      <section class="results graph-result" aria-label="Neighbourhood" aria-busy={picture.loading}>
        {picture.error === undefined ? null : (
          <ErrorPanel error={picture.error} title="Could not load the neighbourhood" onRetry={picture.reload} />
        )}
        {target === null ? (
          <EmptyState title="Choose a memory or name an entity to draw its neighbourhood">
            <p>Or open one of the most connected nodes listed under Graph status.</p>
          </EmptyState>
        ) : picture.data === undefined || picture.data === null ? (
          picture.loading ? (
            <Loading label="Drawing the neighbourhood" />
          ) : null
        ) : picture.data.found ? (
          <NeighbourhoodView loaded={picture.data} onOpen={open} />
        ) : (
          <EmptyState title={`No memory ${picture.data.id} in this scope`}>
            <p>
              It may have been forgotten, or belong to another user or project: choose one above, or check the scope in
              the header.
            </p>
          </EmptyState>
        )}
      </section>
      <div class="graph-panels">
        {rollout.error === undefined ? null : (
          <ErrorPanel error={rollout.error} title="Could not read the rollout" onRetry={rollout.reload} />
        )}
        {rollout.data === undefined ? (
          rollout.loading && <Loading label="Reading the rollout" />
        ) : (
          <RolloutPanel
            data={rollout.data}
            onChanged={() => {
              rollout.reload();
              status.reload();
            }}
          />
        )}
        {status.error === undefined ? null : (
          <ErrorPanel error={status.error} title="Could not read the graph status" onRetry={status.reload} />
        )}
        {status.data === undefined ? (
          status.loading && <Loading label="Reading the graph status" />
        ) : (
          <GraphStatusPanel status={status.data} />
        )}
      </div>
      <GraphNodeDialog node={opened} onClose={() => setOpened(null)} />
    </>
  );
}
