import { describe, expect, it } from 'vitest';
import { QueryVectorCache } from './query-vector-cache.js';

const vector = (value: number) => Float32Array.of(value);

describe('QueryVectorCache', () => {
  it('keeps a vector per model and text, dropping the least recently used past its capacity', () => {
    const cache = new QueryVectorCache(2);
    cache.set('local/a', 'first', vector(1));
    cache.set('local/a', 'second', vector(2));
    expect(cache.get('local/a', 'first')).toEqual(vector(1));
    cache.set('local/a', 'third', vector(3));
    expect(cache.get('local/a', 'second')).toBeUndefined();
    expect(cache.get('local/a', 'first')).toEqual(vector(1));
    expect(cache.get('local/b', 'first')).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it('forgets one model’s vectors and keeps the others’', () => {
    const cache = new QueryVectorCache();
    cache.set('local/a', 'text', vector(1));
    cache.set('local/ab', 'text', vector(2));
    cache.forget('local/a');
    expect(cache.get('local/a', 'text')).toBeUndefined();
    expect(cache.get('local/ab', 'text')).toEqual(vector(2));
  });
});
