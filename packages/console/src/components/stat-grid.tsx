import type { ComponentChildren } from 'preact';
import { formatAgo, formatDateTime } from './format.js';

/** One figure of a `StatGrid`: a name, a value, and an optional line under it (a unit, a threshold). */
export interface Stat {
  name: string;
  value: ComponentChildren;
  detail?: ComponentChildren;
}

/** Current figures as a grid of labelled tiles (a `<dl>`), several across on a laptop, two on a phone. */
export function StatGrid({ stats, label }: { stats: readonly Stat[]; label: string }) {
  return (
    <dl class="stat-grid" aria-label={label}>
      {stats.map((stat) => (
        <div key={stat.name} class="stat-grid__item">
          <dt>{stat.name}</dt>
          <dd>
            <span class="stat-grid__value">{stat.value}</span>
            {stat.detail === undefined ? null : <span class="stat-grid__detail">{stat.detail}</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A time as a stat: how long ago as the value, the date and time under it. */
export function timeStat(name: string, iso: string): Stat {
  return {
    name,
    value: <time dateTime={iso}>{formatAgo(iso)}</time>,
    detail: formatDateTime(iso),
  };
}
