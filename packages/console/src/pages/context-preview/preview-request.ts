import { DEFAULT_MAX_CONTEXT_TOKENS } from '@memory-service/ai-middleware/format';
import type { ContextGetInput } from '@memory-service/client';
import { CONTEXT_MODES, type ContextMode, DEFAULTS, LIMITS } from '@memory-service/contract';
import type { SelectOption } from '../../components/fields.js';

/** What the preview asks `context/get` for, plus the formatter's token budget; kept in the page's URL. */
export interface PreviewRequest {
  /** Empty: the call the middleware makes when the prompt has no user text. */
  query: string;
  limit: number;
  /** '' leaves the choice to the tenant's retrieval policy, as the middleware does when given no strategy. */
  strategy: '' | 'lexical' | 'hybrid';
  graphDepth: number;
  mode: ContextMode;
  includeRules: boolean;
  includeSkillFiles: boolean;
  /** The budget `formatMemoryContext` trims the text to (the middleware's `maxContextTokens`). */
  maxContextTokens: number;
}

/** The middleware's defaults: what an app gets when it sets none of these options. */
export const DEFAULT_PREVIEW_REQUEST: PreviewRequest = {
  query: '',
  limit: DEFAULTS.contextLimit,
  strategy: '',
  graphDepth: DEFAULTS.graphDepth,
  mode: DEFAULTS.mode,
  includeRules: DEFAULTS.includeRules,
  includeSkillFiles: DEFAULTS.includeSkillFiles,
  maxContextTokens: DEFAULT_MAX_CONTEXT_TOKENS,
};

/** The largest budget the form takes: far above any prompt, small enough to stay a number. */
export const MAX_CONTEXT_TOKENS = 1_000_000;

/** The strategy choices: the policy default (no strategy sent), or one named. */
export const STRATEGY_OPTIONS: readonly SelectOption[] = [
  { value: '', label: 'Policy default' },
  { value: 'hybrid', label: 'Hybrid' },
  { value: 'lexical', label: 'Lexical (full text)' },
];
/** The context modes of `context/get`. */
export const MODE_OPTIONS: readonly SelectOption[] = CONTEXT_MODES.map((mode) => ({
  value: mode,
  label: mode.replace('_', ' '),
}));
/** Graph depths 0 to 2 (`LIMITS.graphDepth`). */
export const GRAPH_DEPTH_OPTIONS: readonly SelectOption[] = [
  { value: '0', label: '0 (no graph)' },
  { value: '1', label: '1 hop' },
  { value: '2', label: '2 hops' },
];

function bounded(text: string | null, { min, max }: { min: number; max: number }, fallback: number): number {
  const value = Math.trunc(Number(text ?? ''));
  return text === null || text.trim() === '' || Number.isNaN(value) ? fallback : Math.min(max, Math.max(min, value));
}

function flag(text: string | null, fallback: boolean): boolean {
  return text === null ? fallback : text === '1';
}

/** The request a URL asks for, or null when it asks for none yet (no `query` parameter, not even an empty one). */
export function requestFromParams(params: URLSearchParams): PreviewRequest | null {
  const query = params.get('query');
  if (query === null) return null;
  const defaults = DEFAULT_PREVIEW_REQUEST;
  const strategy = params.get('strategy');
  const mode = params.get('mode');
  return {
    query,
    limit: bounded(params.get('limit'), LIMITS.retrievalLimit, defaults.limit),
    strategy: strategy === 'lexical' || strategy === 'hybrid' ? strategy : '',
    graphDepth: bounded(params.get('graphDepth'), LIMITS.graphDepth, defaults.graphDepth),
    mode: CONTEXT_MODES.find((known) => known === mode) ?? defaults.mode,
    includeRules: flag(params.get('includeRules'), defaults.includeRules),
    includeSkillFiles: flag(params.get('includeSkillFiles'), defaults.includeSkillFiles),
    maxContextTokens: bounded(
      params.get('maxContextTokens'),
      { min: 1, max: MAX_CONTEXT_TOKENS },
      defaults.maxContextTokens,
    ),
  };
}

/** The query string of a request (the inverse of `requestFromParams`). */
export function paramsOf(request: PreviewRequest): string {
  return new URLSearchParams({
    query: request.query,
    limit: String(request.limit),
    strategy: request.strategy,
    graphDepth: String(request.graphDepth),
    mode: request.mode,
    includeRules: request.includeRules ? '1' : '0',
    includeSkillFiles: request.includeSkillFiles ? '1' : '0',
    maxContextTokens: String(request.maxContextTokens),
  }).toString();
}

/** The `context.get` call the middleware would make with these options. */
export function contextInputOf(request: PreviewRequest): ContextGetInput {
  const query = request.query.trim();
  return {
    ...(query === '' ? {} : { query }),
    ...(request.strategy === '' ? {} : { strategy: request.strategy }),
    limit: request.limit,
    graphDepth: request.graphDepth,
    mode: request.mode,
    includeRules: request.includeRules,
    includeSkillFiles: request.includeSkillFiles,
  };
}
