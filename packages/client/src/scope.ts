import { type OperationId, type OperationRequest, operations, placeScope, type Scope } from '@memory-service/contract';

/**
 * Turns a method's input into the operation's input: the call's `scope` over the client's default scope, placed
 * where the operation carries it (the contract's `placeScope`, which the server's `requestScope` reads back).
 */
export function applyScope<Id extends OperationId>(
  operationId: Id,
  input: Record<string, unknown>,
  defaultScope: Scope | undefined,
): OperationRequest<Id> {
  return placeScope(operations[operationId], input, defaultScope) as OperationRequest<Id>;
}
