import * as context from '../resources/context.js';
import { op, tenantCodes } from './define-operation.js';

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
