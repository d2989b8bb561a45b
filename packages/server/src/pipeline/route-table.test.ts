import { describe, expect, it } from 'vitest';
import { createRouteTable, toHonoPath } from './route-table.js';

const table = createRouteTable([
  { method: 'GET', path: '/api/things', operation: 'things.list' },
  { method: 'POST', path: '/api/things', operation: 'things.add' },
  { method: 'GET', path: '/api/things/{thingId}/parts', operation: 'things.parts' },
]);

describe('createRouteTable', () => {
  it('lists the methods of a path, path parameters matching one segment', () => {
    expect(table.methodsFor('/api/things')).toEqual(['GET', 'POST']);
    expect(table.methodsFor('/api/things/t1/parts')).toEqual(['GET']);
    expect(table.methodsFor('/api/things/t1/parts/more')).toEqual([]);
    expect(table.methodsFor('/api/nothing')).toEqual([]);
  });

  it('names the operation of a method and path, HEAD as GET', () => {
    expect(table.operationFor('POST', '/api/things')).toBe('things.add');
    expect(table.operationFor('HEAD', '/api/things/t1/parts')).toBe('things.parts');
    expect(table.operationFor('DELETE', '/api/things')).toBeUndefined();
  });

  it('writes contract paths in Hono syntax', () => {
    expect(toHonoPath('/sessions/{sessionId}/snapshot')).toBe('/sessions/:sessionId/snapshot');
  });
});
