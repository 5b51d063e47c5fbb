import { z } from 'zod/mini';
import { TIERS } from '../domain/tiers';
import { defineContract } from './define';

/**
 * Issue 12: every staff write asks for a reason, recorded in the audit log with the actor. Add `reason: StaffReason`
 * to a staff write's body (or multipart field) and pass it to `AuditService.record({ reason })`.
 */
export const StaffReasonSchema = z
  .string()
  .check(z.trim(), z.minLength(3, 'Give a reason (at least 3 characters)'), z.maxLength(500, 'At most 500 characters'));

export const mintKeys = defineContract({
  operationId: 'mintKeys',
  method: 'POST',
  path: '/staff/keys',
  summary: 'Mint unclaimed license keys (staff only)',
  tags: ['staff'],
  access: 'staff',
  status: 201,
  body: z.object({
    tier: z.enum(TIERS),
    count: z.int().check(z.minimum(1, 'count must be at least 1'), z.maximum(500, 'count must be at most 500')),
    reason: StaffReasonSchema,
  }),
  response: z.object({ keys: z.array(z.string()) }),
});
