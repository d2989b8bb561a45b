import type { ResolvedScope } from '@memory-service/contract';
import type { Database } from './database.js';
import { perDatabaseCache } from './per-database-cache.js';
import { type Condition, countLive, countVisibleLive } from './scope-filter.js';

/**
 * The most memories of one scope ranked exactly by their stored vectors rather than searched in the index. The index
 * ranks the whole tenant: a user who wrote 1% of a shared tenant's memories finds about 2 of theirs among its 200
 * nearest, so a scope narrower than its tenant is ranked on its own. At 100k memories one statement ranking a scope's
 * 1,000 / 2,000 / 4,000 vectors for a query's two vectors takes p50 5.6 / 9.7 / 17 ms, against 26 ms for the two
 * index searches of the whole tenant (BENCHMARKS.md). A larger scope is served the index's list, which holds its share
 * of the tenant's nearest (10% of 100k: about 21 of 200); ranking it exactly would cost more than the index, and grows
 * with it.
 */
export const EXACT_SEARCH_MAX = 4096;

/**
 * How a scope is searched (`scopeRanking`): `exact`, a scope of at most `EXACT_SEARCH_MAX` live memories in a tenant
 * that holds others: its vectors are ranked exactly (the index's nearest would be partly others'), and its full-text
 * matches are checked against its own memories before their rows are read; `index`, a larger scope; `index-or-exact`,
 * a small scope that is the whole tenant: the index's list is the scope's, and the scope is ranked exactly only when
 * the filters leave that list short.
 */
export type ScopeRanking = 'exact' | 'index' | 'index-or-exact';

async function counted(database: Database, counting: Condition): Promise<number> {
  return Number((await database.get<{ count: number }>(counting.sql, counting.args))?.count ?? 0);
}

/**
 * How a scope is searched: its live memories counted through the scope index, and the tenant's, each no further than
 * `EXACT_SEARCH_MAX + 1`, so the counts cost the same (under a millisecond each) however large the tenant. It needs
 * nothing of the query, so a request counts while the query's words are counted and the query is embedded.
 */
export async function scopeRanking(database: Database, scope: ResolvedScope): Promise<ScopeRanking> {
  const visible = await counted(database, countVisibleLive(scope, EXACT_SEARCH_MAX));
  if (visible > EXACT_SEARCH_MAX) return 'index';
  return (await counted(database, countLive(visible))) > visible ? 'exact' : 'index-or-exact';
}

/** How long a scope counted above `EXACT_SEARCH_MAX` is trusted to stay there, as the term counts are. */
const LARGE_SCOPE_TTL_MS = 60_000;
/** Large scopes one database remembers at most. */
const MAX_LARGE_SCOPES = 1_000;

/**
 * `scopeRanking` for one database, remembering the scopes counted above `EXACT_SEARCH_MAX` for a minute: a scope that
 * large only becomes small again when most of it is forgotten, while the count costs ~0.6 ms at 100k memories on every
 * query of a tenant searched whole (its lexical queries pay it on their critical path). A smaller scope is counted on
 * every query (its counts are cheap, and it may grow past the bound or gain neighbours any time).
 */
export class ScopeRankings {
  private readonly large = perDatabaseCache<string, true>(MAX_LARGE_SCOPES, LARGE_SCOPE_TTL_MS);

  constructor(private readonly database: Database) {}

  async ranking(scope: ResolvedScope): Promise<ScopeRanking> {
    const key = JSON.stringify([scope.userId, scope.projectId]);
    if (this.large.get(key) === true) return 'index';
    const ranking = await scopeRanking(this.database, scope);
    if (ranking === 'index') this.large.set(key, true);
    return ranking;
  }
}
