import { ApiError } from '../../api-error.js';
import type { Handler } from '../../pipeline/handler-types.js';
import { erasePerson } from '../../store/erase-user/index.js';

/**
 * `POST /management/users/erase`: erases `userId` from one database of the caller's workspace (`tenantId`, or the
 * workspace's own) and answers the receipt. An unknown tenant is 404, never provisioned. Before sweeping what an
 * indexer pass may have written about the erased memories meanwhile, it waits for the database's pass in progress.
 */
export const eraseUser: Handler<'management.users.erase'> = async (input, context) => {
  const { services, caller, now } = context;
  const tenantId = input.tenantId ?? null;
  if (tenantId !== null && (await services.registry.find(caller.ownerId, tenantId)) === undefined) {
    throw new ApiError('TENANT_NOT_FOUND', `No mapping for tenant '${tenantId}' belongs to this owner`);
  }
  const tenant = await context.tenant();
  return erasePerson({
    database: tenant.database,
    control: services.control.database,
    dataDir: services.config.dataDir,
    ownerId: caller.ownerId,
    tenantId,
    userId: input.userId,
    now,
    settled: () => services.indexing.settled(tenant.database),
  });
};
