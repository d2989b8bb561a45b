import type { ErrorType } from '@memory-service/contract';
import { vi } from 'vitest';
import { createMemoryClient, type MemoryClientOptions } from '../src/index.js';

/** The fake server every msw test talks to. */
export const BASE_URL = 'https://memory.test';
export const API_URL = `${BASE_URL}/api/sdk/v1`;
export const MCP_URL = `${BASE_URL}/api/mcp`;
export const API_KEY = `mem_${'a'.repeat(64)}`;

const meta = (endpoint: string) => ({
  version: '2026-02-11',
  endpoint,
  requestId: '00000000-0000-4000-8000-000000000001',
  timestamp: '2026-11-21T00:00:00.000Z',
});

/** A success envelope around `data`. */
export function successEnvelope(data: unknown, endpoint = '/api/sdk/v1/test') {
  return { ok: true, data, error: null, meta: meta(endpoint) };
}

/** An error envelope as the server writes it. */
export function errorEnvelope(
  code: string,
  status: number,
  type: ErrorType,
  details?: Record<string, unknown>,
  endpoint = '/api/sdk/v1/test',
  retryable = status === 429 || status >= 500,
) {
  const error = { type, code, message: `${code} happened`, status, retryable, ...(details ? { details } : {}) };
  return { ok: false, data: null, error, meta: meta(endpoint) };
}

/** Backoff small enough for tests: 1 ms, 2 ms, 4 ms ... capped at 8 ms, no jitter. */
export const FAST_RETRY = { initialDelayMs: 1, maxDelayMs: 8, random: () => 0 } as const;

/** A client pointed at the fake server, with a backoff so short that retries take no time. */
export function createTestClient(options: MemoryClientOptions = {}) {
  return createMemoryClient({
    baseUrl: BASE_URL,
    apiKey: API_KEY,
    ...options,
    retry: { ...FAST_RETRY, ...options.retry },
  });
}

/**
 * Under `vi.useFakeTimers()`: moves the clock forward by each step in turn and records `counter.attempts` after each,
 * so a test sees when each retry went out without sleeping.
 */
export async function attemptsOverTime(counter: { attempts: number }, steps: number[]): Promise<number[]> {
  const seen: number[] = [];
  for (const step of steps) {
    await vi.advanceTimersByTimeAsync(step);
    seen.push(counter.attempts);
  }
  return seen;
}
