import { describe, expect, it } from 'vitest';
import { ControlCache } from './control-cache.js';

/** A promise with its resolver, to hold a load open while a write runs. */
function deferred<Value>() {
  let resolve!: (value: Value) => void;
  const promise = new Promise<Value>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

describe('ControlCache', () => {
  it('caches a read, so the next read of the key does not load', async () => {
    const cache = new ControlCache<string | undefined>();
    let loads = 0;
    const load = async () => {
      loads += 1;
      return 'row';
    };
    expect(await cache.read('k', load)).toBe('row');
    expect(await cache.read('k', load)).toBe('row');
    expect(loads).toBe(1);
  });

  it('never caches a read that was in flight while a write ran: the next read sees the write', async () => {
    // The race behind a CI failure: a first add for a new tenant read "no mapping" while a concurrent add inserted
    // it; the stale "no mapping" landed in the cache after the insert, and the next request took it for a refusal.
    const cache = new ControlCache<string | undefined>();
    let stored: string | undefined;
    const slow = deferred<string | undefined>();
    const staleRead = cache.read('tenant', () => slow.promise);
    await cache.writing('tenant', async () => {
      stored = 'mapping';
    });
    slow.resolve(undefined); // what the read saw before the write committed
    expect(await staleRead).toBeUndefined();
    expect(await cache.read('tenant', async () => stored)).toBe('mapping');
  });

  it('never caches a read that started during a write (it may have read the row before the commit)', async () => {
    const cache = new ControlCache<string>();
    let stored = 'live key';
    const commit = deferred<void>();
    const write = cache.writing(undefined, async () => {
      await commit.promise;
      stored = 'revoked key';
    });
    const during = await cache.read('hash', async () => stored);
    expect(during).toBe('live key');
    commit.resolve();
    await write;
    expect(await cache.read('hash', async () => stored)).toBe('revoked key');
  });
});
