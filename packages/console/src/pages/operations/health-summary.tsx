import type { Health, OperationData } from '@memory-service/client';
import { formatValue } from './charts/chart-scale.js';
import { windowLabel } from './window-label.js';

type Alarm = OperationData<'management.memory.observability'>['alarms'][number];

/** A report's overall health as a badge, and its alarms (code, message, value against threshold). */
export function HealthSummary({
  health,
  alarms,
  windowHours,
}: {
  health: Health;
  alarms: readonly Alarm[];
  windowHours: number;
}) {
  return (
    <div class="health-summary">
      <p>
        Health <span class={`health health--${health}`}>{health}</span>{' '}
        <span class="muted">over the last {windowLabel(windowHours)}</span>
      </p>
      {alarms.length === 0 ? (
        <p class="muted">No alarm.</p>
      ) : (
        <ul class="alarm-list" aria-label="Alarms">
          {alarms.map((alarm) => (
            <li key={alarm.code} class={`alarm-list__item alarm-list__item--${alarm.severity}`}>
              <span class="alarm-list__severity">{alarm.severity}</span> <code>{alarm.code}</code> {alarm.message}{' '}
              <span class="muted">
                ({formatValue(alarm.value, 3)} against {formatValue(alarm.threshold, 3)})
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
