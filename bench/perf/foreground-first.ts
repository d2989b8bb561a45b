import { readQueue } from './index-queue.js';
import { type LoadResult, type RequestShape, runLoad } from './load.js';

/** Lexical and hybrid `context/get` at 1 client, under one condition. */
export interface SingleClientReads {
  lexical: LoadResult;
  hybrid: LoadResult;
}

/**
 * Foreground first (issue 27): reads with the indexer idle and while it works a backlog of adds; one tenant's 8
 * hybrid readers and 8 writers alone and together (the writers alone are the encoder's `memories/add` run).
 */
export interface ForegroundReport {
  idle: SingleClientReads;
  /** Index jobs queued when the backlog reads started and when they ended. */
  backlogAtStart: number;
  backlogAtEnd: number;
  backlog: SingleClientReads;
  soloReads: LoadResult;
  mixedReads: LoadResult;
  mixedAdds: LoadResult;
}

/** The index jobs queued now (0 when the server reports none); `coverageModel` as `readQueue` takes it. */
export const pendingJobs = async (url: string, apiKey: string, coverageModel?: string) =>
  (await readQueue(url, apiKey, coverageModel).catch(() => null))?.count ?? 0;

/** Lexical, then hybrid `context/get` at 1 client for `seconds` each; `label` names the condition in the run names. */
export async function singleClientReads(
  url: string,
  apiKey: string,
  label: string,
  shapes: { lexical: RequestShape; hybrid: RequestShape },
  seconds: number,
): Promise<SingleClientReads> {
  const run = (strategy: 'lexical' | 'hybrid') => {
    const name = `context/get ${strategy} (${label})`;
    process.stderr.write(`  ${name} c=1\n`);
    return runLoad(name, url, apiKey, shapes[strategy], { connections: 1, seconds });
  };
  return { lexical: await run('lexical'), hybrid: await run('hybrid') };
}

/** 8 clients on hybrid `context/get` and 8 on `memories/add` at once, in the one tenant, for `seconds`. */
export async function mixedTenantLoad(
  url: string,
  apiKey: string,
  shapes: { hybrid: RequestShape; add: RequestShape },
  seconds: number,
): Promise<{ reads: LoadResult; adds: LoadResult }> {
  process.stderr.write('  8 hybrid readers and 8 writers together\n');
  const [reads, adds] = await Promise.all([
    runLoad('context/get hybrid (beside 8 writers)', url, apiKey, shapes.hybrid, { connections: 8, seconds }),
    runLoad('memories/add (beside 8 hybrid readers)', url, apiKey, shapes.add, { connections: 8, seconds }),
  ]);
  return { reads, adds };
}
