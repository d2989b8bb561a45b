import { type OperationId, type OperationRequest, operations, type Scope } from '@memory-service/contract';

const SCOPE_KEYS = ['tenantId', 'userId', 'projectId'] as const;

/** The keys of an object schema (through optional/default wrappers), or an empty list. */
function schemaKeys(schema: unknown): string[] {
  let current = schema;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    if ('shape' in current && typeof current.shape === 'object' && current.shape !== null) {
      return Object.keys(current.shape);
    }
    if (!('unwrap' in current) || typeof current.unwrap !== 'function') return [];
    current = current.unwrap();
  }
  return [];
}

function definedEntries(scope: Scope | undefined): Partial<Scope> {
  return Object.fromEntries(Object.entries(scope ?? {}).filter(([, value]) => value !== undefined));
}

/**
 * Turns a method's input into the operation's input, as the table's `scopeSource` says: the call's `scope` merged
 * over the client's default scope, kept as a `scope` object where the route takes one (only its fields), flattened
 * into `tenantId`/`userId`/`projectId` where the route takes those (GET routes, eval replay), dropped elsewhere. Where
 * the tenantId is the subject of a management route (tenant overrides), only the call's own scope counts.
 */
export function applyScope<Id extends OperationId>(
  operationId: Id,
  input: Record<string, unknown>,
  defaultScope: Scope | undefined,
): OperationRequest<Id> {
  const { scope: callScope, ...rest } = input as Record<string, unknown> & { scope?: Scope };
  const operation = operations[operationId];
  const inputKeys = schemaKeys(operation.input);
  const fromDefault = operation.scopeSource === 'subject' ? {} : definedEntries(defaultScope);
  const merged: Partial<Scope> = { ...fromDefault, ...definedEntries(callScope) };
  if (operation.scopeSource === 'object') {
    const shape = operation.input as unknown as { shape: { scope: unknown } };
    const allowed = new Set(schemaKeys(shape.shape.scope));
    const scope = Object.fromEntries(Object.entries(merged).filter(([key]) => allowed.has(key)));
    return (Object.keys(scope).length === 0 ? rest : { ...rest, scope }) as OperationRequest<Id>;
  }
  const flattened: Record<string, unknown> = { ...rest };
  for (const key of SCOPE_KEYS) {
    if (inputKeys.includes(key) && flattened[key] === undefined && merged[key] !== undefined)
      flattened[key] = merged[key];
  }
  return flattened as OperationRequest<Id>;
}
