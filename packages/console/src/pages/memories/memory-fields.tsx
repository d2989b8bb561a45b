import type { ComponentChildren } from 'preact';
import { formatDateTime } from '../../components/format.js';
import { resolvedDateText } from '../../components/memory-dates.js';
import { MemoryLink } from '../../components/memory-link.js';
import { TagList } from '../../components/tag-list.js';
import { MemoryConflicts, type RelatedMemories } from './memory-conflicts.js';
import type { ListedMemory } from './memory-query.js';

function Row({ name, children }: { name: string; children: ComponentChildren }) {
  return (
    <div class="fields__row">
      <dt>{name}</dt>
      <dd>{children}</dd>
    </div>
  );
}

const none = <span class="muted">none</span>;

/**
 * Every field of a memory record (and, for a search result, its score, source and graph path); with `related`, also
 * what it conflicts with among the listed memories.
 */
export function MemoryFields({ memory, related }: { memory: ListedMemory; related?: RelatedMemories }) {
  const metadata = Object.keys(memory.metadata).length === 0 ? null : JSON.stringify(memory.metadata, null, 2);
  const resolvedDates = memory.resolvedDates ?? [];
  return (
    <>
      <p class="memory-content">{memory.content}</p>
      <dl class="fields">
        <Row name="id">
          <code>{memory.id}</code>
        </Row>
        <Row name="type">{memory.type}</Row>
        <Row name="layer">{memory.layer}</Row>
        <Row name="tags">{memory.tags.length === 0 ? none : <TagList tags={memory.tags} />}</Row>
        <Row name="category">{memory.category ?? none}</Row>
        <Row name="paths">{memory.paths.length === 0 ? none : memory.paths.join(', ')}</Row>
        <Row name="metadata">{metadata === null ? none : <pre class="code-block">{metadata}</pre>}</Row>
        <Row name="userId">{memory.userId ?? none}</Row>
        <Row name="projectId">{memory.projectId ?? none}</Row>
        <Row name="scope">{memory.scope}</Row>
        <Row name="embeddingModel">{memory.embeddingModel ?? none}</Row>
        <Row name="supersededBy">{memory.supersededBy === null ? none : <MemoryLink id={memory.supersededBy} />}</Row>
        {related === undefined ? null : (
          <Row name="conflicts">
            {related.conflicts.some((pair) => pair.memoryAId === memory.id || pair.memoryBId === memory.id) ? (
              <MemoryConflicts memoryId={memory.id} {...related} shown={Number.POSITIVE_INFINITY} />
            ) : (
              <span class="muted">none among the listed memories</span>
            )}
          </Row>
        )}
        {memory.occurredAt === undefined ? null : (
          <Row name="occurredAt">
            <time dateTime={memory.occurredAt}>{formatDateTime(memory.occurredAt)}</time>
          </Row>
        )}
        {memory.resolvedDates === undefined ? null : (
          <Row name="resolvedDates">
            {resolvedDates.length === 0 ? (
              none
            ) : (
              <ul class="resolved-dates">
                {resolvedDates.map((entry, index) => (
                  <li key={`${entry.text}|${index}`}>
                    {entry.text} → <time dateTime={entry.date}>{resolvedDateText(entry)}</time>{' '}
                    <span class="muted">({entry.precision})</span>
                  </li>
                ))}
              </ul>
            )}
          </Row>
        )}
        <Row name="createdAt">
          <time dateTime={memory.createdAt}>{formatDateTime(memory.createdAt)}</time>
        </Row>
        <Row name="updatedAt">
          <time dateTime={memory.updatedAt}>{formatDateTime(memory.updatedAt)}</time>
        </Row>
        {memory.score === undefined ? null : <Row name="score">{memory.score.toFixed(4)}</Row>}
        {memory.source === undefined ? null : <Row name="source">{memory.source}</Row>}
        {memory.graph === undefined ? null : (
          <Row name="graph">
            {`via ${memory.graph.linkedViaNode} (${memory.graph.edgeType}, ${memory.graph.hopCount} hop, confidence ${memory.graph.confidence.toFixed(2)}) from `}
            <code>{memory.graph.seedMemoryId}</code>
          </Row>
        )}
      </dl>
    </>
  );
}
