import type { OperationData } from '@memory-service/contract';
import { useId } from 'preact/hooks';
import { formatDateTime } from '../../components/format.js';

type RolloutData = OperationData<'graph.rollout.get'>;

const MODE_EFFECT = {
  off: 'Graph expansion does not run.',
  shadow: 'Expansion runs beside each context call and is measured, but not served.',
  canary: 'Expansion is served to context calls with the hybrid strategy.',
} as const;

function percent(value: number): string {
  return `${(value * 100).toFixed(1)} %`;
}

/** The gate's measures against its thresholds, in the order the gate checks them. */
function gateRows({ shadowMetrics: metrics, qualityGate: { thresholds } }: RolloutData) {
  return [
    [
      'hybrid samples',
      String(metrics.hybridSamples),
      `≥ ${thresholds.minHybridSamples}`,
      metrics.hybridSamples >= thresholds.minHybridSamples,
    ],
    [
      'shadow executions',
      String(metrics.shadowExecutions),
      `≥ ${thresholds.minShadowExecutionsForCanary}`,
      metrics.shadowExecutions >= thresholds.minShadowExecutionsForCanary,
    ],
    [
      'fallback rate',
      percent(metrics.fallbackRate),
      `≤ ${percent(thresholds.maxFallbackRate)}`,
      metrics.fallbackRate <= thresholds.maxFallbackRate,
    ],
    [
      'graph error fallback rate',
      percent(metrics.graphErrorFallbackRate),
      `≤ ${percent(thresholds.maxGraphErrorFallbackRate)}`,
      metrics.graphErrorFallbackRate <= thresholds.maxGraphErrorFallbackRate,
    ],
    [
      'expansion coverage',
      percent(metrics.expansionCoverage),
      `≥ ${percent(thresholds.minExpansionCoverage)}`,
      metrics.expansionCoverage >= thresholds.minExpansionCoverage,
    ],
    [
      'average graph candidates',
      metrics.averageGraphCandidates.toFixed(2),
      `≥ ${thresholds.minAverageGraphCandidatesForCanary}`,
      metrics.averageGraphCandidates >= thresholds.minAverageGraphCandidatesForCanary,
    ],
  ] as const;
}

function Codes({ codes }: { codes: readonly string[] }) {
  if (codes.length === 0) return <span>none</span>;
  return (
    <ul class="code-list">
      {codes.map((code) => (
        <li key={code}>
          <code>{code}</code>
        </li>
      ))}
    </ul>
  );
}

/** `graph/rollout`: the mode and what it does, the quality gate's verdict, reasons and measures, and the plan. */
export function RolloutPanel({ data }: { data: RolloutData }) {
  const titleId = useId();
  const { rollout, qualityGate, rolloutPlan, retrievalPolicy } = data;
  return (
    <section class="panel" aria-labelledby={titleId}>
      <h2 id={titleId}>Rollout and quality gate</h2>
      <dl class="fields">
        <div class="fields__row">
          <dt>mode</dt>
          <dd>
            <strong class={`status status--${rollout.mode}`} data-testid="rollout-mode">
              {rollout.mode}
            </strong>{' '}
            {MODE_EFFECT[rollout.mode]}
            {rollout.updatedAt === null ? null : (
              <span class="muted small">
                {' '}
                Set {formatDateTime(rollout.updatedAt)}
                {rollout.updatedBy === null ? '' : ` by ${rollout.updatedBy}`}.
              </span>
            )}
          </dd>
        </div>
        <div class="fields__row">
          <dt>quality gate</dt>
          <dd>
            <strong class={`status status--${qualityGate.status}`} data-testid="quality-gate">
              {qualityGate.status.replace('_', ' ')}
            </strong>{' '}
            over the last {qualityGate.windowHours} hours
            <span class="muted small"> · evaluated {formatDateTime(qualityGate.evaluatedAt)}</span>
          </dd>
        </div>
        <div class="fields__row">
          <dt>reasons</dt>
          <dd>
            <Codes codes={qualityGate.reasonCodes} />
          </dd>
        </div>
        <div class="fields__row">
          <dt>plan</dt>
          <dd>
            recommended mode <strong>{rolloutPlan.recommendedMode}</strong>,{' '}
            {rolloutPlan.defaultBehaviorDecision.replace('_', ' ')}; default strategy{' '}
            <strong>{retrievalPolicy.defaultStrategy}</strong>
            {rolloutPlan.autopilot.enabled
              ? ` · autopilot on${rolloutPlan.autopilot.applied ? ', applied' : ''}`
              : ' · autopilot off'}
          </dd>
        </div>
        <div class="fields__row">
          <dt>blockers</dt>
          <dd>
            <Codes codes={rolloutPlan.blockerCodes} />
          </dd>
        </div>
      </dl>
      <table class="gate-table">
        <caption>The gate's measures over its window</caption>
        <thead>
          <tr>
            <th scope="col">measure</th>
            <th scope="col">now</th>
            <th scope="col">needed</th>
          </tr>
        </thead>
        <tbody>
          {gateRows(data).map(([name, value, needed, met]) => (
            <tr key={name} class={met ? 'gate-table__met' : 'gate-table__unmet'}>
              <th scope="row">{name}</th>
              <td>{value}</td>
              <td>
                {needed} <span class="gate-table__verdict">{met ? 'met' : 'not met'}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
