import { z } from 'zod/mini';
import { defineContract } from './define';

export const AUDIT_ACTOR_TYPES = ['user', 'staff', 'system', 'provider'] as const;

export const AuditEntrySchema = z.object({
  id: z.int(),
  at: z.string(),
  actor_type: z.enum(AUDIT_ACTOR_TYPES),
  actor_id: z.nullable(z.string()),
  action: z.string(),
  object_type: z.string(),
  object_id: z.string(),
  customer_user_id: z.nullable(z.int()),
  reason: z.nullable(z.string()),
  data: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

const id = (message: string) => z.string().check(z.regex(/^\d{1,10}$/, message));

/** The audit log, newest first (staff only). Read-only: no route edits or deletes an entry. */
export const listAuditLog = defineContract({
  operationId: 'listAuditLog',
  method: 'GET',
  path: '/staff/audit-log',
  summary: 'The audit log, newest first, with simple filters (staff only)',
  tags: ['staff'],
  access: 'staff',
  query: z.object({
    customer_user_id: z.optional(id('Invalid customer')),
    action: z.optional(z.string().check(z.regex(/^[a-z_]{1,40}\.[a-z_]{1,40}$/, 'Invalid action'))),
    object_type: z.optional(z.string().check(z.regex(/^[a-z_]{1,40}$/, 'Invalid object type'))),
    object_id: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'Invalid object id'))),
    before_id: z.optional(id('Invalid cursor')),
    /** 1–500, 100 by default. */
    limit: z.optional(z.string().check(z.regex(/^\d{1,3}$/, 'Invalid limit'))),
  }),
  response: z.object({ entries: z.array(AuditEntrySchema) }),
});
