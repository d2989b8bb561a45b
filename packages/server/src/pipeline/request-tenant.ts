import type { TenantDatabase, TenantLease } from '../tenancy/resolver.js';

/**
 * The database of one request, leased on first use and released once when the handler ends. A lease that arrives
 * after the handler ended (it stopped waiting for it) is released at once.
 */
export class RequestTenant {
  private leasing: Promise<TenantLease> | undefined;
  private ended = false;

  constructor(private readonly take: () => Promise<TenantLease>) {}

  /** The request's database; the first call takes the lease, later calls share it. */
  get(): Promise<TenantDatabase> {
    this.leasing ??= this.take().then((lease) => {
      if (this.ended) lease.release();
      return lease;
    });
    return this.leasing.then((lease) => lease.handle);
  }

  /** Ends the request's use of its database (idempotent). */
  release(): void {
    if (this.ended) return;
    this.ended = true;
    this.leasing?.then((lease) => lease.release()).catch(() => undefined);
  }
}
