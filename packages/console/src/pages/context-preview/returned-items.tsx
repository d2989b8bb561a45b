import type { ConflictPair, ContextGetResult, RetrievedMemory } from '@memory-service/client';
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import { shortContent } from '../../components/conflict-roles.js';
import { countOf } from '../../components/format.js';
import { MemoryDates } from '../../components/memory-dates.js';
import { SupersededBy } from '../../components/memory-link.js';
import { TagList } from '../../components/tag-list.js';
import { Link } from '../../router/link.js';
import { consolePath } from '../../router/router.js';
import { InText } from './in-text.js';
import { ConflictItem, ConflictMarks } from './returned-conflicts.js';

/** Whether the formatted text holds an item: the formatter writes each rule and memory as `· id <id>]`. */
export function memoryInText(text: string, id: string): boolean {
  return text.includes(`· id ${id}]`);
}

/** Whether the formatted text explains a conflict (`- <a> vs <b>:`). */
export function conflictInText(text: string, first: string, second: string): boolean {
  return text.includes(`\n- ${first} vs ${second}:`);
}

/** Whether the formatted text lists a skill file (`- <path>`). */
export function skillFileInText(text: string, path: string): boolean {
  return text.includes(`\n- ${path}`);
}

function Group({ title, count, children }: { title: string; count: number; children: ComponentChildren }) {
  const id = useId();
  return (
    <section class="returned-items__group" aria-labelledby={id}>
      <h3 id={id}>
        {title} <span class="muted">({count})</span>
      </h3>
      {count === 0 ? <p class="muted small">None returned.</p> : <ol class="returned-items__list">{children}</ol>}
    </section>
  );
}

function GraphPath({ memory, seedContent }: { memory: RetrievedMemory; seedContent: string | undefined }) {
  if (memory.graph === undefined) return null;
  const { linkedViaNode, edgeType, hopCount, confidence, seedMemoryId } = memory.graph;
  return (
    <p class="returned-item__path">
      graph path: from seed <q>{seedContent === undefined ? seedMemoryId : shortContent(seedContent)}</q> via{' '}
      <strong>{linkedViaNode}</strong> ({edgeType}, {hopCount} {hopCount === 1 ? 'hop' : 'hops'}, confidence{' '}
      {confidence.toFixed(2)})
    </p>
  );
}

function MemoryItem({
  memory,
  tier,
  text,
  contentOf,
  conflicts,
}: {
  memory: RetrievedMemory;
  tier: 'rule' | 'working' | 'long-term';
  text: string;
  contentOf: (id: string) => string | undefined;
  conflicts: readonly ConflictPair[];
}) {
  return (
    <li class="returned-item" data-memory-id={memory.id}>
      <p class="returned-item__content">
        <span class={`badge badge--tier-${tier}`}>{tier}</span> {memory.content}
      </p>
      <p class="returned-item__meta">
        <span>
          source <strong>{memory.source}</strong>
        </span>
        <span>score {memory.score.toFixed(4)}</span>
        {tier === 'rule' ? null : <span class={`badge badge--${memory.type}`}>{memory.type}</span>}
        <InText shown={memoryInText(text, memory.id)} />
        <TagList tags={memory.tags} />
        {memory.layer === 'rule' ? null : (
          <Link href={`${consolePath('graph')}?memory=${encodeURIComponent(memory.id)}`}>Graph</Link>
        )}
        <SupersededBy id={memory.supersededBy} />
      </p>
      <MemoryDates memory={memory} class="memory-dates returned-item__dates" />
      <ConflictMarks memoryId={memory.id} conflicts={conflicts} contentOf={contentOf} />
      <GraphPath memory={memory} seedContent={memory.graph && contentOf(memory.graph.seedMemoryId)} />
    </li>
  );
}

/** Every item the bundle returned, in its rank order: rules, memories by tier, skill files, conflicts. */
export function ReturnedItems({ context, text }: { context: ContextGetResult; text: string }) {
  const working = new Set(context.workingMemories.map((memory) => memory.id));
  const byId = new Map([...context.rules, ...context.memories].map((memory) => [memory.id, memory.content]));
  const contentOf = (id: string) => byId.get(id);
  const conflicts = context.conflicts ?? [];
  return (
    <section class="returned-items" aria-label="Returned items">
      <Group title="Rules" count={context.rules.length}>
        {context.rules.map((memory) => (
          <MemoryItem
            key={memory.id}
            memory={memory}
            tier="rule"
            text={text}
            contentOf={contentOf}
            conflicts={conflicts}
          />
        ))}
      </Group>
      <Group title="Memories" count={context.memories.length}>
        {context.memories.map((memory) => (
          <MemoryItem
            key={memory.id}
            memory={memory}
            tier={working.has(memory.id) ? 'working' : 'long-term'}
            text={text}
            contentOf={contentOf}
            conflicts={conflicts}
          />
        ))}
      </Group>
      <Group title="Conflicts" count={conflicts.length}>
        {conflicts.map((conflict) => (
          <ConflictItem
            key={`${conflict.memoryAId}|${conflict.memoryBId}`}
            conflict={conflict}
            inText={conflictInText(text, conflict.memoryAId, conflict.memoryBId)}
            contentOf={contentOf}
          />
        ))}
      </Group>
      <Group title="Skill files" count={context.skillFiles.length}>
        {context.skillFiles.map((file) => (
          <li key={file.id} class="returned-item">
            <p class="returned-item__content">
              <span class="badge badge--skill">skill file</span> <code>{file.path}</code>
              {file.title === null ? null : ` · ${file.title}`}
            </p>
            <p class="returned-item__meta">
              <span>{file.content.length.toLocaleString()} characters</span>
              <span>used {countOf(file.useCount, 'time')}</span>
              <InText shown={skillFileInText(text, file.path)} />
            </p>
          </li>
        ))}
      </Group>
    </section>
  );
}
