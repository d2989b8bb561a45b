import { callRoute, type OutcomeTally, type Target } from './churn-http.js';
import { generateMemories, generateQueries } from './seed-data.js';

const API = '/api/sdk/v1';
/** Pause between two re-provisions: about 10 a second, each remapping a tenant that writers are using. */
const REMAP_PAUSE_MS = 100;

/** The tally's name of the cycling writers' adds (the warm-up lasts until they wrote to every tenant). */
export const CYCLED_ADD = 'memories/add (cycled)';

const contents = Array.from(generateMemories(500, 23), (memory) => memory.content);
const queries = generateQueries(100, 23);

/**
 * `workers` clients cycling `tenants` in turn (more than the open-tenant cache holds, so every request may open a
 * tenant and evict another): each adds a memory to the next tenant, then gets context from it.
 */
export async function cycleTenants(
  target: Target,
  tally: OutcomeTally,
  { tenants, workers, running }: { tenants: string[]; workers: number; running: () => boolean },
): Promise<void> {
  let next = 0;
  const client = async () => {
    while (running()) {
      const index = next++;
      const scope = { tenantId: tenants[index % tenants.length]! };
      const content = `${contents[index % contents.length]} (churn ${index})`;
      tally.record(CYCLED_ADD, await callRoute(target, `${API}/memories/add`, { content, scope }));
      const query = queries[index % queries.length]!;
      tally.record('context/get (cycled)', await callRoute(target, `${API}/context/get`, { query, scope }));
    }
  };
  await Promise.all(Array.from({ length: workers }, client));
}

/**
 * Re-provisions `tenants` one after another (`tenant-overrides` with mode `provision`, which remaps the tenant and
 * retires its open handle) while one writer per tenant keeps adding to it. Returns how many remaps were answered 2xx.
 */
export async function reprovisionTenants(
  target: Target,
  tally: OutcomeTally,
  { tenants, running }: { tenants: string[]; running: () => boolean },
): Promise<number> {
  let remaps = 0;
  const writer = async (tenantId: string) => {
    for (let index = 0; running(); index++) {
      const content = `${contents[index % contents.length]} (remapped ${tenantId} ${index})`;
      const outcome = await callRoute(target, `${API}/memories/add`, { content, scope: { tenantId } });
      tally.record('memories/add (re-provisioned tenant)', outcome);
    }
  };
  const remapper = async () => {
    for (let index = 0; running(); index++) {
      const tenantId = tenants[index % tenants.length]!;
      const outcome = await callRoute(target, `${API}/management/tenant-overrides`, { tenantId, mode: 'provision' });
      tally.record('tenant-overrides provision', outcome);
      if (outcome.startsWith('2')) remaps++;
      await new Promise((resolve) => setTimeout(resolve, REMAP_PAUSE_MS));
    }
  };
  await Promise.all([...tenants.map(writer), remapper()]);
  return remaps;
}
