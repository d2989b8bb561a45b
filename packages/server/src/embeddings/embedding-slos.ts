import type { Health } from '@memory-service/contract';

/**
 * Service-level objectives of the embedding path. The fallback rate matches the graph quality gate's maximum
 * (0.15, docs/architecture.md#retrieval); at most 5% of embedding jobs may fail; the p95 of a hybrid retrieve() (query embedding + FTS + vector
 * search + fusion) stays under 500 ms, a budget a prompt-time call can afford.
 */
export const SLO_THRESHOLDS = { maxFallbackRate: 0.15, maxErrorRate: 0.05, maxP95LatencyMs: 500 } as const;
/** Rates are judged only over at least this many samples: 1 failure in 2 calls is not a 50% error rate yet. */
export const MIN_RATE_SAMPLES = 10;
/** A memory still without a vector after an hour means writes failed and no backfill ran since. */
export const MAX_PENDING_AGE_SECONDS = 3600;
/** An alarm is critical when its value is at least twice its threshold. */
const CRITICAL_FACTOR = 2;

/** The figures SLOs and alarms are computed from. */
export interface SloFigures {
  pending: number;
  oldestPendingAgeSeconds: number | null;
  jobs: number;
  errorRate: number;
  semanticRequests: number;
  fallbackRate: number;
  p95LatencyMs: number | null;
  modelAvailable: boolean;
}

/** An alarm as the contract reports it. */
export interface EmbeddingAlarm {
  code: string;
  severity: 'warning' | 'critical';
  message: string;
  value: number;
  threshold: number;
}

/** Each SLO with its threshold and whether it is met (a rate with too few samples counts as met). */
export function slosFor(figures: SloFigures) {
  return {
    ...SLO_THRESHOLDS,
    fallbackRateMet:
      figures.semanticRequests < MIN_RATE_SAMPLES || figures.fallbackRate <= SLO_THRESHOLDS.maxFallbackRate,
    errorRateMet: figures.jobs < MIN_RATE_SAMPLES || figures.errorRate <= SLO_THRESHOLDS.maxErrorRate,
    latencyMet: figures.p95LatencyMs === null || figures.p95LatencyMs <= SLO_THRESHOLDS.maxP95LatencyMs,
  };
}

function breach(code: string, message: string, value: number, threshold: number): EmbeddingAlarm {
  return { code, severity: value >= threshold * CRITICAL_FACTOR ? 'critical' : 'warning', message, value, threshold };
}

/** The alarms raised by the figures. */
export function alarmsFor(figures: SloFigures, modelId: string): EmbeddingAlarm[] {
  const slos = slosFor(figures);
  const alarms: EmbeddingAlarm[] = [];
  if (!figures.modelAvailable) {
    alarms.push({
      code: 'EMBEDDING_MODEL_UNAVAILABLE',
      severity: 'critical',
      message: `Embedding model '${modelId}' is not available: writes are not embedded and hybrid falls back`,
      value: 1,
      threshold: 0,
    });
  }
  if (!slos.fallbackRateMet) {
    alarms.push(
      breach(
        'EMBEDDING_FALLBACK_RATE_HIGH',
        'Hybrid retrieval fell back to lexical too often',
        figures.fallbackRate,
        SLO_THRESHOLDS.maxFallbackRate,
      ),
    );
  }
  if (!slos.errorRateMet) {
    alarms.push(
      breach(
        'EMBEDDING_ERROR_RATE_HIGH',
        'Embedding jobs failed too often',
        figures.errorRate,
        SLO_THRESHOLDS.maxErrorRate,
      ),
    );
  }
  if (!slos.latencyMet && figures.p95LatencyMs !== null) {
    alarms.push(
      breach(
        'EMBEDDING_RETRIEVAL_LATENCY_HIGH',
        'Hybrid retrieval p95 latency is over its objective',
        figures.p95LatencyMs,
        SLO_THRESHOLDS.maxP95LatencyMs,
      ),
    );
  }
  if (figures.pending > 0 && (figures.oldestPendingAgeSeconds ?? 0) > MAX_PENDING_AGE_SECONDS) {
    alarms.push(
      breach(
        'EMBEDDING_QUEUE_STALE',
        `${figures.pending} memories are waiting for a vector; run the backfill`,
        figures.oldestPendingAgeSeconds ?? 0,
        MAX_PENDING_AGE_SECONDS,
      ),
    );
  }
  return alarms;
}

/** Critical with any critical alarm, degraded with any warning, else healthy. */
export function healthOf(alarms: readonly EmbeddingAlarm[]): Health {
  if (alarms.some((alarm) => alarm.severity === 'critical')) return 'critical';
  return alarms.length > 0 ? 'degraded' : 'healthy';
}
