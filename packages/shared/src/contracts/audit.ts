import { z } from 'zod/mini';
import { defineContract } from './define';
import { idString, isIdText } from './ids';

export const AUDIT_ACTOR_TYPES = ['user', 'staff', 'system', 'provider'] as const;

export const AuditEntrySchema = z.object({
  id: z.int(),
  at: z.string(),
  actor_type: z.enum(AUDIT_ACTOR_TYPES),
  actor_id: z.nullable(z.string()),
  action: z.string(),
  object_type: z.string(),
  object_id: z.string(),
  /** The staff member's or user's email when the actor is a person (null for system and provider actors). */
  actor_email: z.nullable(z.string()),
  customer_user_id: z.nullable(z.int()),
  customer_email: z.nullable(z.string()),
  reason: z.nullable(z.string()),
  data: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/** A person by email, or a user id. */
const emailOrId = (message: string) =>
  z.string().check(
    z.trim(),
    z.toLowerCase(),
    z.regex(/^([1-9]\d{0,9}|[^\s@]{1,64}@[^\s@]{1,189})$/, message),
    z.refine((value) => value.includes('@') || isIdText(value), message),
  );

/**
 * The audit log, newest first (staff only), one page at a time: `before_id` is the cursor (the answer's
 * `next_cursor`, null on the last page). Read-only: no route edits or deletes an entry.
 */
export const listAuditLog = defineContract({
  operationId: 'listAuditLog',
  method: 'GET',
  path: '/staff/audit-log',
  summary: 'The audit log, newest first, filtered by actor, customer, key, object or action; cursor paged (staff only)',
  tags: ['staff'],
  access: 'staff',
  query: z.object({
    actor_type: z.optional(z.enum(AUDIT_ACTOR_TYPES)),
    /** Who did it: a person's email or user id, or a provider's name (`stripe`, `paypal`). */
    actor: z.optional(z.string().check(z.trim(), z.toLowerCase(), z.regex(/^[^\s]{1,254}$/, 'Invalid actor'))),
    /** The customer concerned, by email or user id. */
    customer: z.optional(emailOrId('Enter a customer email or id')),
    customer_user_id: z.optional(idString('Invalid customer')),
    /** A license key by id: entries whose object is that key. */
    key: z.optional(idString('Enter a key id')),
    action: z.optional(z.string().check(z.regex(/^[a-z_]{1,40}\.[a-z_]{1,40}$/, 'Invalid action'))),
    object_type: z.optional(z.string().check(z.regex(/^[a-z_]{1,40}$/, 'Invalid object type'))),
    object_id: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'Invalid object id'))),
    before_id: z.optional(idString('Invalid cursor')),
    /** 1–500, 100 by default. */
    limit: z.optional(z.string().check(z.regex(/^\d{1,3}$/, 'Invalid limit'))),
  }),
  response: z.object({ entries: z.array(AuditEntrySchema), next_cursor: z.nullable(z.string()) }),
});
