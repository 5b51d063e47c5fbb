import { z } from 'zod/mini';
import { defineContract } from './define';
import { StaffReasonSchema } from './staff';

const isoDate = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be YYYY-MM-DD'));
const httpsUrl = z.string().check(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }), z.maxLength(2000));

/** One entry of the dashboard's updates feed (§3 "Homepage data: an updates list"). */
export const HomepageUpdateSchema = z.object({
  title: z.string().check(z.trim(), z.minLength(1, 'title is required'), z.maxLength(120)),
  body: z.string().check(z.trim(), z.minLength(1, 'body is required'), z.maxLength(2000)),
  date: isoDate,
  link: z.optional(z.nullable(httpsUrl)),
  image: z.optional(z.nullable(httpsUrl)),
});
export type HomepageUpdate = z.infer<typeof HomepageUpdateSchema>;

export const HomepageDataSchema = z.object({ updates: z.array(HomepageUpdateSchema) });
export type HomepageData = z.infer<typeof HomepageDataSchema>;

export const getHomepageSettings = defineContract({
  operationId: 'getHomepageSettings',
  method: 'GET',
  path: '/staff/homepage-settings',
  summary: 'The updates feed; preview=true returns the staff draft (staff only)',
  tags: ['homepage'],
  access: 'user',
  query: z.object({ preview: z.optional(z.enum(['true', 'false'])) }),
  response: HomepageDataSchema,
});

export const saveHomepageSettings = defineContract({
  operationId: 'saveHomepageSettings',
  method: 'PUT',
  path: '/staff/homepage-settings',
  summary: 'Save the updates feed as a draft, or publish it, with a reason recorded in the audit log (staff only)',
  tags: ['homepage'],
  access: 'staff',
  body: z.object({
    updates: z.array(HomepageUpdateSchema).check(z.maxLength(50, 'at most 50 updates')),
    publish: z.boolean(),
    reason: StaffReasonSchema,
  }),
  response: HomepageDataSchema,
});
