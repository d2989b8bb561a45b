import { normalizeStrategy, type Strategy } from '@memory-service/contract';
import { buildContextBundle } from '../retrieval/context-bundle.js';
import type { Handler } from './types.js';

/** The tenant's default strategy: lexical until the retrieval policy promotes hybrid. */
const POLICY_DEFAULT: Strategy = 'lexical';

/** `context/get`. */
export const getContext: Handler<'context.get'> = async (input, context) => {
  const requested = normalizeStrategy(input.strategy);
  const { database } = await context.tenant();
  return buildContextBundle(database, {
    query: input.query ?? '',
    scope: context.scope,
    limit: input.limit,
    mode: input.mode,
    includeRules: input.includeRules,
    includeSkillFiles: input.includeSkillFiles,
    graphDepth: input.graphDepth,
    graphLimit: input.graphLimit,
    strategy: requested ?? POLICY_DEFAULT,
    strategySelection: requested === undefined ? 'policy_default' : 'request',
    policyDefault: POLICY_DEFAULT,
    now: context.now,
  });
};
