import { z } from 'zod/mini';
import { TIERS } from '../domain/tiers';
import { defineContract } from './define';
import { idString } from './ids';

/**
 * Issue 12: every staff write asks for a reason, recorded in the audit log with the actor. Add `reason: StaffReason`
 * to a staff write's body (or multipart field) and pass it to `AuditService.record({ reason })`.
 */
export const StaffReasonSchema = z
  .string()
  .check(z.trim(), z.minLength(3, 'Give a reason (at least 3 characters)'), z.maxLength(500, 'At most 500 characters'));

/** A staff list's cursor: the last id of the page before (lists are newest first). */
export const StaffCursorSchema = z.optional(idString('Invalid cursor'));

/**
 * The order of a staff list by creation (its id): newest first unless `asc`. The cursor is the last id seen, so
 * paging works the same both ways.
 */
export const StaffSortOrderSchema = z.optional(z.enum(['asc', 'desc']));
export type StaffSortOrder = 'asc' | 'desc';

/** Rows per page of a staff list: 1–100 (each list has its default). */
export const StaffPageLimitSchema = z.optional(
  z.coerce.number().check(z.int('Invalid limit'), z.minimum(1, 'Invalid limit'), z.maximum(100, 'Invalid limit')),
);

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
