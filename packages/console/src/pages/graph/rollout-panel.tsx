import { type OperationData, ROLLOUT_MODES, type RolloutMode } from '@memory-service/contract';
import { useId, useState } from 'preact/hooks';
import { useAction } from '../../api/use-action.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { SelectField } from '../../components/fields.js';
import { formatDateTime } from '../../components/format.js';
import { NEXT_STEP, reasonWords } from './rollout-words.js';

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

/** Reason or blocker codes in plain words, each with its code (what logs and the API name) in small print. */
function Reasons({ codes, none }: { codes: readonly string[]; none: string }) {
  if (codes.length === 0) return <span>{none}</span>;
  return (
    <ul class="reason-list">
      {codes.map((code) => (
        <li key={code}>
          {reasonWords(code)} <code class="muted small">{code}</code>
        </li>
      ))}
    </ul>
  );
}

const MODE_OPTIONS = ROLLOUT_MODES.map((mode) => ({ value: mode, label: mode }));

/**
 * Moves the rollout (graph/rollout POST). The server refuses canary while the gate blocks it
 * (`CANARY_ROLLOUT_BLOCKED`), which shows here in its own words.
 */
function RolloutControl({ mode, onChanged }: { mode: RolloutMode; onChanged: (data: RolloutData) => void }) {
  const [next, setNext] = useState<RolloutMode>(mode === 'off' ? 'shadow' : mode === 'shadow' ? 'canary' : 'shadow');
  const move = useAction((client, target: RolloutMode) => client.graph.rollout.set({ mode: target }));
  return (
    <form
      class="rollout-control"
      aria-label="Move the rollout"
      onSubmit={async (event) => {
        event.preventDefault();
        const data = await move.run(next);
        if (data !== undefined) onChanged(data);
      }}
    >
      <p class="muted small">{NEXT_STEP[mode]}</p>
      <div class="rollout-control__row">
        <SelectField
          label="New mode"
          name="mode"
          value={next}
          onValue={(value) => {
            setNext(value as RolloutMode);
            move.reset();
          }}
          options={MODE_OPTIONS}
        />
        <button type="submit" class="button button--primary" disabled={move.pending || next === mode}>
          {move.pending ? 'Setting…' : 'Set mode'}
        </button>
      </div>
      {move.error === undefined ? null : <ErrorPanel error={move.error} title="The rollout did not move" />}
    </form>
  );
}

/**
 * `graph/rollout`: the mode and what it does, the quality gate's verdict, its reasons and measures in plain words,
 * the plan, and a control to move the mode.
 */
export function RolloutPanel({ data, onChanged }: { data: RolloutData; onChanged: (data: RolloutData) => void }) {
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
            <Reasons codes={qualityGate.reasonCodes} none="None: every measure is met." />
          </dd>
        </div>
        <div class="fields__row">
          <dt>plan</dt>
          <dd>
            recommended mode <strong>{rolloutPlan.recommendedMode}</strong>,{' '}
            {rolloutPlan.defaultBehaviorDecision.replaceAll('_', ' ')}; default strategy{' '}
            <strong>{retrievalPolicy.defaultStrategy}</strong>
            {rolloutPlan.autopilot.enabled
              ? ` · autopilot on${rolloutPlan.autopilot.applied ? ', applied' : ''}`
              : ' · autopilot off'}
          </dd>
        </div>
        <div class="fields__row">
          <dt>blockers</dt>
          <dd>
            <Reasons codes={rolloutPlan.blockerCodes} none="None." />
          </dd>
        </div>
      </dl>
      <RolloutControl key={rollout.mode} mode={rollout.mode} onChanged={onChanged} />
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
