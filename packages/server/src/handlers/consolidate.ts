import { consolidateMemories } from '../consolidation/consolidate.js';
import type { Handler } from '../pipeline/handler-types.js';

/** `memories/consolidate` (the pipeline answers 403 MEMORY_CONSOLIDATION_DISABLED when the flag is off). */
export const consolidate: Handler<'memories.consolidate'> = async (input, context) =>
  consolidateMemories((await context.tenant()).database, {
    scope: context.scope,
    types: input.types,
    includeGlobal: input.includeGlobal,
    globalOnly: input.globalOnly,
    dryRun: input.dryRun,
    model: input.model,
    now: context.now,
  });
