import { SAMPLE_INTERVAL_MS, type Sample } from './use-sampled-report.js';

const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

/** The caption of a chart the console sampled: how, since when, and why (the API gives no series). */
export function SampledCaption({ samples }: { samples: readonly Sample<unknown>[] }) {
  const first = samples[0];
  return (
    <>
      Sampled every {SAMPLE_INTERVAL_MS / 1000} s while this page is open (the API gives current figures, not a series):{' '}
      {samples.length} {samples.length === 1 ? 'sample' : 'samples'}
      {first === undefined ? '' : ` since ${time.format(new Date(first.at))}`}.
    </>
  );
}
