import type * as z from 'zod';
import type { ErrorCode, FieldCodeRule } from '../errors.js';
import { featureFlagErrorCode, type OperationDefinition } from './operation-definition.js';

/** The fields of an entry that `op()` derives when they are not given. */
type Derived = 'inputLocation' | 'pathParams' | 'mcp' | 'readOnly' | 'destructive' | 'createsTenant' | 'errorCodes';

/**
 * One entry of the table. Derived unless given: `inputLocation` from the method (GET and DELETE read the query
 * string), `pathParams` from the path, `readOnly` (GET), `createsTenant` (not read-only), no MCP tool, not
 * destructive, and the flag's 403 code among `errorCodes`.
 */
export function op<const Input extends z.ZodType, const Data extends z.ZodType>(
  definition: Omit<OperationDefinition<Input, Data>, Derived> & Partial<Pick<OperationDefinition, Derived>>,
): OperationDefinition<Input, Data> {
  const readOnly = definition.readOnly ?? definition.method === 'GET';
  const flagCode = definition.featureFlag === undefined ? [] : [featureFlagErrorCode(definition.featureFlag)];
  return {
    inputLocation: definition.method === 'GET' || definition.method === 'DELETE' ? 'query' : 'body',
    pathParams: [...definition.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string),
    mcp: [],
    readOnly,
    destructive: false,
    createsTenant: !readOnly,
    ...definition,
    errorCodes: [...new Set([...(definition.errorCodes ?? []), ...flagCode])],
  };
}

/** A missing `sessionId` answers 400 SESSION_ID_REQUIRED. */
export const sessionRequired: FieldCodeRule = { field: 'sessionId', code: 'SESSION_ID_REQUIRED', when: 'missing' };
/** The codes of every route that reaches a tenant database (no database, or a mapping not usable yet). */
export const tenantCodes: readonly ErrorCode[] = [
  'DATABASE_NOT_CONFIGURED',
  'TENANT_DATABASE_NOT_CONFIGURED',
  'TENANT_DATABASE_NOT_READY',
  'TENANT_DATABASE_CREDENTIALS_MISSING',
];
