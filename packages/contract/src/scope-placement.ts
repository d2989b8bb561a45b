import type { OperationDefinition } from './operations/operation-definition.js';
import type { ResolvedScope, Scope } from './scope.js';

/** The three fields of a scope, in the order requests and answers give them. */
export const SCOPE_FIELDS = ['tenantId', 'userId', 'projectId'] as const;
/** One of `SCOPE_FIELDS`. */
export type ScopeField = (typeof SCOPE_FIELDS)[number];

/** What of an operation decides where its requests carry their scope. */
type ScopedOperation = Pick<OperationDefinition, 'scopeSource'>;

/**
 * Where a request of an operation carries its scope, as the table's `scopeSource` says: `object`, inside the body's
 * `scope` object; `fields`, as top-level `tenantId`/`userId`/`projectId` (`scopeSource` `fields`, and `subject`,
 * whose top-level `tenantId` names the tenant managed); `none`, nowhere. The server reads the scope there
 * (`requestScope`), a client writes it there (`placeScope`), and MCP's flat arguments map to it.
 */
export function scopeLocation(operation: ScopedOperation): 'object' | 'fields' | 'none' {
  if (operation.scopeSource === 'object') return 'object';
  return operation.scopeSource === 'none' ? 'none' : 'fields';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}

/** The scope a parsed request carries, read where the operation carries it (null where a field is absent). */
export function requestScope(operation: ScopedOperation, input: unknown): ResolvedScope {
  const record = isRecord(input) ? input : {};
  const location = scopeLocation(operation);
  const source =
    location === 'none' ? {} : location === 'object' ? (isRecord(record.scope) ? record.scope : {}) : record;
  const pick = (key: ScopeField) => (typeof source[key] === 'string' ? source[key] : null);
  return { tenantId: pick('tenantId'), userId: pick('userId'), projectId: pick('projectId') };
}

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

function definedEntries(scope: unknown): Partial<Scope> {
  return isRecord(scope) ? Object.fromEntries(Object.entries(scope).filter(([, value]) => value !== undefined)) : {};
}

/**
 * A caller's request with its scope where the operation carries it: the request's own `scope` merged over
 * `defaultScope`, kept as a `scope` object where the operation takes one (only the fields it takes), given as the
 * top-level fields the input takes and the request leaves unset where the operation reads those, dropped elsewhere.
 * A `subject` operation's `tenantId` names the tenant managed, so there only the request's own scope counts.
 */
export function placeScope(
  operation: Pick<OperationDefinition, 'scopeSource' | 'input'>,
  request: Record<string, unknown>,
  defaultScope?: Scope,
): Record<string, unknown> {
  const { scope: ownScope, ...rest } = request;
  const fromDefault = operation.scopeSource === 'subject' ? {} : definedEntries(defaultScope);
  const merged: Partial<Scope> = { ...fromDefault, ...definedEntries(ownScope) };
  const location = scopeLocation(operation);
  if (location === 'object') {
    const shape = operation.input as unknown as { shape: { scope: unknown } };
    const allowed = new Set(schemaKeys(shape.shape.scope));
    const scope = Object.fromEntries(Object.entries(merged).filter(([key]) => allowed.has(key)));
    return Object.keys(scope).length === 0 ? rest : { ...rest, scope };
  }
  const inputKeys = schemaKeys(operation.input);
  const flattened: Record<string, unknown> = { ...rest };
  for (const key of SCOPE_FIELDS) {
    if (inputKeys.includes(key) && flattened[key] === undefined && merged[key] !== undefined) {
      flattened[key] = merged[key];
    }
  }
  return flattened;
}
