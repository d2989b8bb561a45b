import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { perDatabaseCache } from './per-database-cache.js';

describe('perDatabaseCache', () => {
  it('holds at most its entries, dropping the least recently used first', () => {
    const cache = perDatabaseCache<string, number>(3);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('a')).toBe(1);
    cache.set('d', 4);
    expect(cache.size).toBe(3);
    expect(cache.has('b')).toBe(false);
    expect([...cache.keys()].sort()).toEqual(['a', 'c', 'd']);
    for (let index = 0; index < 1_000; index++) cache.set(`k${index}`, index);
    expect(cache.size).toBe(3);
    expect([...cache.keys()].sort()).toEqual(['k997', 'k998', 'k999']);
  });

  it('forgets an entry once its time to live has passed', async () => {
    const cache = perDatabaseCache<string, number>(10, 30);
    cache.set('count', 7);
    expect(cache.get('count')).toBe(7);
    await sleep(80);
    expect(cache.get('count')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
