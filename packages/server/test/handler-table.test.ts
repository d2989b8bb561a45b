import { operationList } from '@memory-service/contract';
import { describe, expect, it } from 'vitest';
import { defaultHandlers } from '../src/handlers/index.js';
import type { HandlerTable } from '../src/pipeline/handler-types.js';

// The type checks below run with `pnpm typecheck` (tsc covers test/): a `@ts-expect-error` that finds no error fails.
describe('the handler table', () => {
  it('has a handler for every operation of the contract, and nothing else', () => {
    expect(Object.keys(defaultHandlers).sort()).toEqual(operationList.map((operation) => operation.id).sort());
    for (const [id, handler] of Object.entries(defaultHandlers)) expect(typeof handler, id).toBe('function');
  });

  it('is exhaustive at compile time: a missing handler is a type error, not a runtime 404', () => {
    const { health: _health, ...withoutHealth } = defaultHandlers;
    // @ts-expect-error `health` is missing, and HandlerTable requires a handler for every OperationId
    const incomplete: HandlerTable = withoutHealth;
    expect(Object.keys(incomplete)).not.toContain('health');
  });

  it("types each handler by its operation's input and data", () => {
    // @ts-expect-error memories/add's handler takes another input and gives other data than health's
    const mismatched: HandlerTable = { ...defaultHandlers, health: defaultHandlers['memories.add'] };
    expect(mismatched.health).toBe(defaultHandlers['memories.add']);
  });
});
