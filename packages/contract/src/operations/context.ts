import * as context from '../resources/context.js';
import { op, tenantCodes } from './define-operation.js';

/**
 * The lifecycle hints a client library interprets itself (the contract: "not part of the raw body of context/get"),
 * which the memories.sh client also passes to the MCP tool get_context: accepted there and ignored.
 */
export const SESSION_HINT_ARGUMENTS = {
  session_id: 'A client-side session hint: accepted and ignored.',
  budget_tokens: 'A client-side token budget hint: accepted and ignored.',
  turn_count: 'A client-side turn count hint: accepted and ignored.',
  turn_budget: 'A client-side turn budget hint: accepted and ignored.',
  last_activity_at: 'A client-side inactivity hint: accepted and ignored.',
  inactivity_threshold_minutes: 'A client-side inactivity hint: accepted and ignored.',
  task_completed: 'A client-side lifecycle hint: accepted and ignored.',
  include_session_summary: 'A client-side session summary hint: accepted and ignored.',
} as const;

/** The context route: the bundle returned at prompt time. */
export const contextOperations = {
  'context.get': op({
    id: 'context.get',
    method: 'POST',
    readOnly: true,
    path: '/context/get',
    summary: 'Return the context bundle for a prompt: rules, memories, skill files and a retrieval trace',
    description:
      'Returns the context bundle for a prompt: the standing rules, the memories retrieved for `query` (lexical or hybrid, with optional graph expansion over linked memories), skill files, contradictions between returned memories and a trace of how retrieval ran. Every field is optional.',
    tag: 'context',
    auth: 'apiKey',
    scopeSource: 'object',
    input: context.ContextGetInputSchema,
    data: context.ContextGetDataSchema,
    successStatus: 200,
    mcp: [
      {
        name: 'get_context',
        description:
          'Get the memory context bundle for a query: rules, relevant memories, skill files and a retrieval trace.',
        ignoredArguments: SESSION_HINT_ARGUMENTS,
      },
      {
        name: 'get_rules',
        description: 'Get the standing rules for the scope.',
        fixedInput: { mode: 'rules_only', includeRules: true },
      },
    ],
    errorCodes: tenantCodes,
  }),
} as const;
