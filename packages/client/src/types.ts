import type { OperationData, OperationId, OperationInput, OperationRequest, Scope } from '@memory-service/contract';
import type { RequestOptions } from './request-options.js';

/** A per-call scope, merged over the client's default scope. */
export interface ScopeOverride {
  scope?: Scope | undefined;
}

/** What a method takes for a body operation: the contract's request type (defaults optional) plus a scope. */
export type CallInput<Id extends OperationId> = OperationRequest<Id> & ScopeOverride;

/**
 * What a method takes for a query-string operation: the contract's parsed input with every field optional (its
 * query integers are coerced from text, so their request type is `unknown`), plus a scope flattened into the query.
 */
export type QueryInput<Id extends OperationId, Omitted extends PropertyKey = never> = Omit<
  Partial<OperationInput<Id>>,
  Omitted
> &
  ScopeOverride;

/** Runs one operation: merges the scope, sends through the transport with retries, returns the envelope `data`. */
export type OperationCaller = <Id extends OperationId>(
  operationId: Id,
  input: OperationRequest<Id> | QueryInput<Id>,
  options?: RequestOptions,
) => Promise<OperationData<Id>>;
