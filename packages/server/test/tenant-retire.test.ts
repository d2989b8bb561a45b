import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../src/store/database.js';
import { TenantDatabase } from '../src/tenancy/tenant-database.js';

// An evicted tenant handle is closed once the requests holding it end (`retire`, then the resolver closes it). A
// request still holding it when it closes meets a closed database; its log rows (retrieval events and metrics,
// appended after its reads) are dropped with a warning.

let database: Database;

beforeAll(async () => {
  database = await Database.open({ url: 'file::memory:' });
});

afterAll(async () => {
  await database.close();
});

/** Whether `promise` has settled once the reactions and timers queued in the next `ms` have run. */
async function settledWithin(promise: Promise<unknown>, ms = 25): Promise<boolean> {
  let settled = false;
  void promise.then(() => {
    settled = true;
  });
  await new Promise((resolve) => setTimeout(resolve, ms));
  return settled;
}

describe('retiring a tenant handle', () => {
  it('waits for the request holding it, then refuses new ones', async () => {
    const handle = new TenantDatabase('held', 'held', database);
    const release = handle.tryAcquire();
    expect(release).not.toBeNull();
    const retired = handle.retire(10_000);
    expect(await settledWithin(retired)).toBe(false);
    release?.();
    await retired;
    expect(handle.tryAcquire()).toBeNull();
  });

  it('waits for a request that took it in the turn its last holder let go', async () => {
    const handle = new TenantDatabase('handover', 'handover', database);
    const first = handle.tryAcquire();
    const retired = handle.retire(10_000);
    // The resolver takes a lease in a promise reaction: this one is queued before the release wakes the retirement.
    const second = Promise.resolve().then(() => handle.tryAcquire());
    first?.();
    const release = await second;
    expect(release).not.toBeNull();
    // The second request holds the handle: closing it now would close the database under that request.
    expect(await settledWithin(retired)).toBe(false);
    release?.();
    await retired;
    expect(handle.tryAcquire()).toBeNull();
  });

  it('stops waiting after its bound, so a request that overstays cannot keep a handle open', async () => {
    const handle = new TenantDatabase('overstay', 'overstay', database);
    const release = handle.tryAcquire();
    expect(release).not.toBeNull();
    await handle.retire(30);
    expect(handle.tryAcquire()).toBeNull();
    release?.();
  });
});
