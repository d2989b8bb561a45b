import type { MemoryClient } from '@memory-service/client';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { type ConsoleError, toConsoleError } from '../../api/console-error.js';
import { useClient } from '../../api/use-client.js';
import { useSession } from '../../session/session-context.js';

/** How often an observability report is read while its section is open. */
export const SAMPLE_INTERVAL_MS = 10_000;
/** Samples kept per report: one hour at one every 10 s. */
const KEEP = 360;

/** A report as read at one moment. */
export interface Sample<Data> {
  at: number;
  data: Data;
}

// The observability routes answer current figures over a window, not series: the console keeps what it read, in
// memory for the tab (not storage), per report and scope, so leaving the section and coming back keeps the lines.
const buffers = new Map<string, Sample<unknown>[]>();

/** What a sampled section renders from. */
export interface SampledReport<Data> {
  samples: Sample<Data>[];
  error: ConsoleError | undefined;
  loading: boolean;
  /** Reads the report now (a sample off the 10 s beat). */
  sampleNow: () => void;
}

/**
 * Reads a report now and every `SAMPLE_INTERVAL_MS` while mounted, appending each answer to the series of `name`
 * in the session's scope; a read still running skips the next beat.
 */
export function useSampledReport<Data>(
  name: string,
  load: (client: MemoryClient, signal: AbortSignal) => Promise<Data>,
): SampledReport<Data> {
  const client = useClient();
  const { session } = useSession();
  const key = `${name}|${JSON.stringify(session?.scope ?? {})}`;
  const loadRef = useRef(load);
  loadRef.current = load;
  const sampleRef = useRef<() => void>(() => undefined);
  const [samples, setSamples] = useState<Sample<Data>[]>(() => (buffers.get(key) ?? []) as Sample<Data>[]);
  const [error, setError] = useState<ConsoleError | undefined>(undefined);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    const controller = new AbortController();
    let running = false;
    setSamples((buffers.get(key) ?? []) as Sample<Data>[]);
    const sample = async () => {
      if (running) return;
      running = true;
      setLoading(true);
      try {
        const data = await loadRef.current(client, controller.signal);
        if (controller.signal.aborted) return;
        const next = [...(buffers.get(key) ?? []), { at: Date.now(), data }].slice(-KEEP);
        buffers.set(key, next);
        setSamples(next as Sample<Data>[]);
        setError(undefined);
      } catch (thrown) {
        if (!controller.signal.aborted) setError(toConsoleError(thrown));
      } finally {
        running = false;
        if (!controller.signal.aborted) setLoading(false);
      }
    };
    sampleRef.current = () => void sample();
    void sample();
    const timer = setInterval(() => void sample(), SAMPLE_INTERVAL_MS);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [client, key]);

  const sampleNow = useCallback(() => sampleRef.current(), []);
  return { samples, error, loading, sampleNow };
}
