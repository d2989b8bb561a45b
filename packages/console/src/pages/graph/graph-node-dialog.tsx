import { LIMITS } from '@memory-service/contract';
import { Dialog } from '../../components/dialog.js';
import { Link } from '../../router/link.js';
import { consolePath, navigate } from '../../router/router.js';
import { DEFAULT_PREVIEW_REQUEST, paramsOf } from '../context-preview/preview-request.js';
import { MemoryFields } from '../memories/memory-fields.js';
import type { GraphNode } from './graph-model.js';
import { ROLE_NAMES } from './graph-shapes.js';
import { graphPath } from './graph-target.js';

/** A memory of the picture: all its fields, then centre the picture on it or preview the context its text gets. */
export function GraphNodeDialog({ node, onClose }: { node: GraphNode | null; onClose: () => void }) {
  const memory = node?.memory;
  return (
    <Dialog open={memory !== undefined} title="Memory in the graph" onClose={onClose} wide>
      {node === null || memory === undefined ? null : (
        <div class="stack">
          {node.role === undefined ? null : <p class="muted">In the picture: {ROLE_NAMES[node.role]}.</p>}
          <div class="actions">
            {node.role === 'focus' ? null : (
              <button
                type="button"
                class="button button--primary"
                onClick={() => {
                  onClose();
                  navigate(graphPath({ kind: 'memory', id: memory.id }));
                }}
              >
                Centre the graph here
              </button>
            )}
            <Link
              class="button"
              href={`${consolePath('context')}?${paramsOf({ ...DEFAULT_PREVIEW_REQUEST, query: memory.content.slice(0, LIMITS.query.max) })}`}
            >
              Preview the context for its text
            </Link>
          </div>
          <MemoryFields memory={memory} />
        </div>
      )}
    </Dialog>
  );
}
