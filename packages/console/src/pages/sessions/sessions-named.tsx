import type { MemoryClient } from '@memory-service/client';
import { LIMITS } from '@memory-service/contract';
import { useRequest } from '../../api/use-request.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { Loading } from '../../components/loading.js';
import { Link } from '../../router/link.js';
import { consolePath } from '../../router/router.js';
import { sourceSessionOf } from '../skill-files/load-skill-files.js';

/** A session id that records in the scope name, and how many of each. */
interface NamedSession {
  id: string;
  memories: number;
  skillFiles: string[];
}

/** The session a memory names: the AI SDK middleware's capture writes `metadata.sessionId`. */
function sessionOfMemory(metadata: Record<string, unknown>): string | null {
  const id = metadata['sessionId'];
  return typeof id === 'string' && id !== '' ? id : null;
}

/**
 * The session ids in the metadata of the newest memories (the AI SDK middleware's capture writes `sessionId`) and of
 * skill files (a promoted file keeps `source.sessionId`).
 */
async function loadNamedSessions(client: MemoryClient, signal: AbortSignal): Promise<NamedSession[]> {
  const [memories, skills] = await Promise.all([
    client.memories.list({ limit: LIMITS.listLimit.max }, { signal }),
    client.skills.list({ limit: LIMITS.skillListLimit.max }, { signal }),
  ]);
  const named = new Map<string, NamedSession>();
  const entry = (id: string) => {
    const found = named.get(id) ?? { id, memories: 0, skillFiles: [] };
    named.set(id, found);
    return found;
  };
  for (const memory of memories.memories) {
    const id = sessionOfMemory(memory.metadata);
    if (id !== null) entry(id).memories += 1;
  }
  for (const file of skills.skillFiles) {
    const id = sourceSessionOf(file);
    if (id !== null) entry(id).skillFiles.push(file.path);
  }
  return [...named.values()];
}

function describe(session: NamedSession): string {
  const parts = [];
  if (session.memories > 0) parts.push(`${session.memories} ${session.memories === 1 ? 'memory' : 'memories'}`);
  if (session.skillFiles.length > 0) parts.push(`skill file ${session.skillFiles.join(', ')}`);
  return parts.join(' · ');
}

/** Sessions found in the metadata of memories and skill files of the scope. */
export function SessionsNamed() {
  const named = useRequest(loadNamedSessions, []);
  return (
    <section class="stack" aria-labelledby="sessions-named-title" aria-busy={named.loading}>
      <h2 id="sessions-named-title">Named by memories and skill files</h2>
      {named.error === undefined ? null : (
        <ErrorPanel error={named.error} title="Could not read memories and skill files" onRetry={named.reload} />
      )}
      {named.data === undefined ? (
        named.loading ? (
          <Loading label="Reading memories and skill files" />
        ) : null
      ) : named.data.length === 0 ? (
        <EmptyState title="No memory or skill file of this scope names a session">
          <p>
            Memories captured by the AI SDK middleware carry <code>metadata.sessionId</code>; skill files promoted from
            a session keep <code>metadata.source.sessionId</code>. Only the newest {LIMITS.listLimit.max} memories are
            read.
          </p>
        </EmptyState>
      ) : (
        <ul class="session-list" aria-label="Sessions named by memories and skill files">
          {named.data.map((session) => (
            <li key={session.id} class="session-list__item">
              <Link href={consolePath('sessions', session.id)} class="session-list__link">
                <code>{session.id}</code>
              </Link>
              <span class="session-list__meta">{describe(session)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
