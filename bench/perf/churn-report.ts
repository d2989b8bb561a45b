import type { ChurnSoakResult } from './churn-soak.js';
import type { TargetRow } from './target-row.js';

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** The churn soak's checks as rows of the targets table (their part names start with `churn soak`). */
export function churnTargetRows(result: ChurnSoakResult): TargetRow[] {
  return result.checks.map((check) => ({
    part: `churn soak: ${check.check}`,
    memories: null,
    target: check.target,
    measured: check.measured,
    verdict: check.met ? 'met' : 'missed',
  }));
}

function printSetup(result: ChurnSoakResult): void {
  const seed = result.seed;
  const mcp =
    seed === null
      ? 'no MCP batches'
      : `the largest MCP batches in turn over ${seed.memories} memories at the content and metadata caps and ${seed.skillFiles} skill files of ${seed.skillFileChars.toLocaleString('en')} characters (${Math.round(seed.skillFileBytes / 1024)} KiB) each`;
  console.log(
    `\nchurn soak (issue 23), server ${result.serverRoot} (pid ${result.pid}): ${result.seconds} s measured after a ${result.warmUpSeconds} s warm-up, then ${result.idleSeconds} s idle. ${result.writers} writers cycling ${result.tenants} tenants (memories/add + context/get) over an open-tenant cache of ${result.cacheSize} (${result.databaseWorkers} database workers); ${result.remappedTenants} tenants re-provisioned ${result.remaps} times under a writer each; ${mcp}.`,
  );
}

function printReadings(result: ChurnSoakResult): void {
  const { descriptors, rssMb } = result;
  console.log('| reading | descriptors | RSS MB |');
  console.log('| --- | ---: | ---: |');
  const row = (label: string, pick: (metric: typeof descriptors) => number | string) =>
    console.log(`| ${label} | ${pick(descriptors)} | ${pick(rssMb)} |`);
  row('server started (baseline)', (metric) => metric.baseline);
  row(`start (after the ${result.warmUpSeconds} s warm-up)`, (metric) => metric.start);
  row('peak', (metric) => metric.peak);
  row('end of the load', (metric) => metric.end);
  row(`after ${result.idleSeconds} s idle`, (metric) => metric.afterIdle);
  row('max of the first / last third', (metric) => `${metric.firstThirdMax} / ${metric.lastThirdMax}`);
  row('fitted growth per minute', (metric) => metric.slopePerMinute);
  row('verdict', (metric) => (metric.flat ? 'flat' : 'GROWING'));
  const trace = result.samples.map((sample) => `${sample.descriptors}/${sample.rssMb}`).join(' ');
  console.log(`every 5 s, descriptors/RSS MB: ${trace}`);
  if (result.serverExitedAtSeconds !== null)
    console.log(`THE SERVER PROCESS WAS GONE at ${result.serverExitedAtSeconds} s (sampler clock)`);
}

function printMcp(result: ChurnSoakResult): void {
  if (result.mcpBatches.length === 0) return;
  console.log(
    '| MCP batch | batches | calls served | MCP_RESPONSE_BUDGET_EXCEEDED | other errors | largest answer | slowest |',
  );
  console.log('| --- | ---: | ---: | ---: | --- | ---: | ---: |');
  for (const batch of result.mcpBatches) {
    const other = Object.entries(batch.otherErrors).map(([code, count]) => `${count} ${code}`);
    console.log(
      `| ${batch.label} | ${batch.batches} | ${batch.served} | ${batch.overBudget} | ${other.join(', ') || '0'} | ${mib(batch.maxBytes)} | ${(batch.maxMilliseconds / 1000).toFixed(1)} s |`,
    );
  }
}

function printOutcomes(result: ChurnSoakResult): void {
  console.log('| requests | answers | outcomes |');
  console.log('| --- | ---: | --- |');
  for (const [kind, outcomes] of Object.entries(result.outcomes)) {
    const total = Object.values(outcomes).reduce((sum, count) => sum + count, 0);
    const listed = Object.entries(outcomes)
      .sort(([, a], [, b]) => b - a)
      .map(([outcome, count]) => `${outcome}: ${count}`);
    console.log(`| ${kind} | ${total} | ${listed.join(', ')} |`);
  }
}

/** Prints the churn soak: its setup, the descriptor and RSS readings, the MCP batches and the answers by outcome. */
export function printChurnSoak(result: ChurnSoakResult): void {
  printSetup(result);
  printReadings(result);
  printMcp(result);
  printOutcomes(result);
  console.log(`churn soak ${result.passed ? 'passed' : 'FAILED'} (checks in the targets table)`);
}
