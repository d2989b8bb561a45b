import type { ContextTrace } from '@memory-service/contract';
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

function Fact({ name, children }: { name: string; children: ComponentChildren }) {
  return (
    <div class="fields__row">
      <dt>{name}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}

const ROLLOUT_EFFECT = {
  off: 'graph expansion does not run',
  shadow: 'expansion runs beside the answer, not served',
  canary: 'expansion is served to hybrid calls',
} as const;

/**
 * How `context/get` ran, in the trace's own field names: the strategy requested and applied, fallbacks and why,
 * candidate counts, the graph rollout and expansion.
 */
export function RetrievalTrace({ trace, requested }: { trace: ContextTrace; requested: '' | 'lexical' | 'hybrid' }) {
  const titleId = useId();
  const fellBack = trace.fallbackTriggered || trace.semanticFallbackTriggered;
  return (
    <section class="retrieval-trace" aria-labelledby={titleId}>
      <h2 id={titleId}>Retrieval trace</h2>
      <dl class="fields retrieval-trace__facts">
        <Fact name="strategy">
          requested <strong>{requested === '' ? 'none' : requested}</strong>
          {trace.retrievalPolicySelection === 'policy_default'
            ? ` → policy default ${trace.retrievalPolicyDefaultStrategy}`
            : null}
          {' · applied '}
          <strong data-testid="applied-strategy">{trace.retrievalPolicyAppliedStrategy}</strong> ({trace.strategy})
        </Fact>
        <Fact name="semantic">
          requested {yesNo(trace.semanticStrategyRequested === 'hybrid')}, applied{' '}
          {yesNo(trace.semanticStrategyApplied === 'hybrid')}
          {trace.embeddingModel === null ? null : ` · model ${trace.embeddingModel}`}
        </Fact>
        <Fact name="fallbacks">
          {fellBack ? (
            <ul class="retrieval-trace__fallbacks">
              {trace.fallbackTriggered ? <li>fallback: {trace.fallbackReason ?? 'no reason given'}</li> : null}
              {trace.semanticFallbackTriggered ? (
                <li>semantic fallback: {trace.semanticFallbackReason ?? 'no reason given'}</li>
              ) : null}
            </ul>
          ) : (
            'none'
          )}
        </Fact>
        <Fact name="candidates">
          {trace.baselineCandidates} baseline, {trace.graphCandidates} graph, {trace.totalCandidates} in all
        </Fact>
        <Fact name="rollout">
          <strong>{trace.rolloutMode}</strong>: {ROLLOUT_EFFECT[trace.rolloutMode]}
          {trace.shadowExecuted ? ' · shadow run executed' : null}
        </Fact>
        <Fact name="graph">
          depth {trace.graphDepth}, limit {trace.graphLimit} · {trace.graphExpandedCount} expanded into the answer
        </Fact>
        <Fact name="conflicts">{trace.conflictCount}</Fact>
        {trace.rulesTruncated ? <Fact name="rules">more live rules exist than were returned</Fact> : null}
        {trace.skillFilesOmitted > 0 ? (
          <Fact name="skill files">{trace.skillFilesOmitted} left out whole by the size limit</Fact>
        ) : null}
        <Fact name="duration">{trace.durationMs.toFixed(1)} ms</Fact>
      </dl>
    </section>
  );
}
