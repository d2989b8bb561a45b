import { ApiError } from '../api-error.js';
import type { Handler, HandlerContext, HandlerTable } from '../pipeline/handler-types.js';
import { bulkForget } from '../writes/bulk-forget.js';
import { isRule } from '../writes/rule-memory.js';

/**
 * Whether this MCP call may write rules: its key was minted with the permission (`keys create --allow-rule-writes`,
 * `allowRuleWrites` on POST /management/keys), or the operator allows every key (MEMORY_MCP_RULE_WRITES).
 */
function mayWriteRules(context: HandlerContext): boolean {
  return context.caller.allowRuleWrites || context.services.config.mcpRuleWrites;
}

function refused(field: 'type' | 'layer' | 'id'): ApiError {
  return new ApiError(
    'RULE_WRITE_NOT_ALLOWED',
    'Rules (type or layer "rule") are injected into every later prompt, so MCP clients may not add, edit or forget them ' +
      'unless their key may: mint one with `memory-service keys create --allow-rule-writes` (or allowRuleWrites on ' +
      'POST /management/keys), or set MEMORY_MCP_RULE_WRITES=true. Apps write rules over the HTTP API.',
    { field },
  );
}

/** Which field of a write asks for a rule, if any. */
function ruleField(input: { type?: string | undefined; layer?: string | undefined }): 'type' | 'layer' | null {
  if (input.type === 'rule') return 'type';
  if (input.layer === 'rule') return 'layer';
  return null;
}

/** Refuses a change of a stored rule; a memory the scope does not see is left to the handler (404). */
async function refuseStoredRule(context: HandlerContext, id: string): Promise<void> {
  const row = await (await context.tenant()).memories.findVisible(id, context.scope);
  if (row !== undefined && isRule(row)) throw refused('id');
}

/**
 * The handlers MCP tools run on: the HTTP routes' handlers, except that rule writes need the permission
 * (`mayWriteRules`). Without it `add_memory` and `edit_memory` answer 403 RULE_WRITE_NOT_ALLOWED for type or layer
 * `rule`, `edit_memory` and `forget_memory` for a stored rule, and `bulk_forget_memories` leaves rules alone and
 * counts them in `rulesSkipped`. Any key holder's MCP client is often a model reading untrusted text, and a rule
 * it plants is obeyed in every later prompt of every user who sees it; the HTTP
 * routes, which apps call with their key, keep accepting rule writes.
 */
export function guardRuleWrites(handlers: HandlerTable): HandlerTable {
  const addMemory: Handler<'memories.add'> = async (input, context) => {
    const field = mayWriteRules(context) ? null : ruleField(input);
    if (field !== null) throw refused(field);
    return handlers['memories.add'](input, context);
  };
  const editMemory: Handler<'memories.edit'> = async (input, context) => {
    if (!mayWriteRules(context)) {
      const field = ruleField(input);
      if (field !== null) throw refused(field);
      await refuseStoredRule(context, input.id);
    }
    return handlers['memories.edit'](input, context);
  };
  const forgetMemory: Handler<'memories.forget'> = async (input, context) => {
    if (!mayWriteRules(context)) await refuseStoredRule(context, input.id);
    return handlers['memories.forget'](input, context);
  };
  const bulkForgetMemories: Handler<'memories.bulkForget'> = async (input, context) =>
    mayWriteRules(context)
      ? handlers['memories.bulkForget'](input, context)
      : bulkForget((await context.tenant()).memories, input, context.scope, context.now, { keepRules: true });
  return {
    ...handlers,
    'memories.add': addMemory,
    'memories.edit': editMemory,
    'memories.forget': forgetMemory,
    'memories.bulkForget': bulkForgetMemories,
  };
}
