import * as z from 'zod';
import { LIMITS } from './limits.js';

/** Valid tenantId (docs/architecture.md#tenancy-and-visibility). */
export const TENANT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
/** Valid userId (docs/architecture.md#tenancy-and-visibility). */
export const USER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@+-]{0,255}$/;

export const TenantIdSchema = z
  .string()
  .max(LIMITS.tenantId.max)
  .regex(TENANT_ID_PATTERN, 'tenantId must start with a letter or digit and use only letters, digits, . _ : -');
export const UserIdSchema = z
  .string()
  .max(LIMITS.userId.max)
  .regex(USER_ID_PATTERN, 'userId must start with a letter or digit and use only letters, digits, . _ : @ + -');
export const ProjectIdSchema = z.string().min(LIMITS.projectId.min).max(LIMITS.projectId.max);

/** The optional `scope` object of runtime and graph requests. */
export const ScopeSchema = z.strictObject({
  tenantId: TenantIdSchema.optional(),
  userId: UserIdSchema.optional(),
  projectId: ProjectIdSchema.optional(),
});
export type Scope = z.infer<typeof ScopeSchema>;

/** The same three values as query parameters of GET routes. */
export const scopeQueryShape = {
  tenantId: TenantIdSchema.optional(),
  userId: UserIdSchema.optional(),
  projectId: ProjectIdSchema.optional(),
};

/** The resolved scope echoed in responses (null where absent). */
export const ResolvedScopeSchema = z.object({
  tenantId: z.string().nullable(),
  userId: z.string().nullable(),
  projectId: z.string().nullable(),
});
export type ResolvedScope = z.infer<typeof ResolvedScopeSchema>;
