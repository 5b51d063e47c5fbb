import { z } from 'zod/mini';
import { defineContract } from './define';

/** §3 "Analytics events": the only event names the portal records. */
export const ANALYTICS_EVENT_NAMES = [
  'Viewed Upgrade Options',
  'Selected Upgrade',
  'Started Upgrade Checkout',
  'Completed Upgrade Purchase',
  'Completed Upgrade Token Redemption',
  'Active on Site',
] as const;
export type AnalyticsEventName = (typeof ANALYTICS_EVENT_NAMES)[number];

/**
 * Issue 19: the purchase and redemption events are the server's own, recorded from settled orders and spent tokens
 * (with the amounts the server charged). The browser sends only §3's other events; the track route refuses these.
 */
export const SERVER_ONLY_ANALYTICS_EVENT_NAMES = [
  'Completed Upgrade Purchase',
  'Completed Upgrade Token Redemption',
] as const satisfies readonly AnalyticsEventName[];

/** The events the browser may send through POST /api/klaviyo/track. */
export const BROWSER_ANALYTICS_EVENT_NAMES = [
  'Viewed Upgrade Options',
  'Selected Upgrade',
  'Started Upgrade Checkout',
  'Active on Site',
] as const satisfies readonly AnalyticsEventName[];
export type BrowserAnalyticsEventName = (typeof BROWSER_ANALYTICS_EVENT_NAMES)[number];

/** At most this many properties per event or profile, each key and text value bounded (the whole body too). */
export const MAX_ANALYTICS_PROPERTIES = 40;
export const MAX_ANALYTICS_PROPERTIES_BYTES = 8 * 1024;

const propertyValue = z.union([
  z.string().check(z.maxLength(500, 'an analytics property text is at most 500 characters')),
  z.number().check(z.refine(Number.isFinite, 'an analytics property number must be finite')),
  z.boolean(),
  z.null(),
  z.array(z.string().check(z.maxLength(100))).check(z.maxLength(20)),
]);

/** §3 properties (license key, theme name, upgrade from and to, price, …): flat values, bounded in count and size. */
export const AnalyticsPropertiesSchema = z.record(
  z.string().check(z.minLength(1), z.maxLength(64, 'an analytics property name is at most 64 characters')),
  propertyValue,
);
export type AnalyticsProperties = z.infer<typeof AnalyticsPropertiesSchema>;

/** The words that make a property name a money field (`price`, `order_total`, `taxRate`, `$value`, `Revenue`…). */
const MONEY_WORDS = new Set([
  'value',
  'revenue',
  'price',
  'amount',
  'subtotal',
  'total',
  'tax',
  'vat',
  'discount',
  'shipping',
  'cost',
  'paid',
  'refund',
  'refunded',
]);

/** True when a property name carries money: one of its words (split at `_`, `-`, `$`, `.`, spaces, camelCase) is. */
export function isMoneyProperty(name: string): boolean {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .some((word) => MONEY_WORDS.has(word));
}

/**
 * A browser event's properties without its money fields: amounts come only from the server (its purchase events are
 * built from the settled order), so a number typed into a browser call never reaches the provider's revenue.
 */
export function withoutMoneyProperties(properties: AnalyticsProperties): AnalyticsProperties {
  return Object.fromEntries(Object.entries(properties).filter(([name]) => !isMoneyProperty(name)));
}

const boundedProperties = AnalyticsPropertiesSchema.check(
  z.refine(
    (properties) => Object.keys(properties).length <= MAX_ANALYTICS_PROPERTIES,
    `at most ${MAX_ANALYTICS_PROPERTIES} analytics properties`,
  ),
  z.refine(
    (properties) => JSON.stringify(properties).length <= MAX_ANALYTICS_PROPERTIES_BYTES,
    `analytics properties are at most ${MAX_ANALYTICS_PROPERTIES_BYTES} bytes`,
  ),
);

/**
 * The id the provider dedupes an event on (the server's events use `ANALYTICS_EVENT_IDS`; a browser call sent twice
 * with one id is counted once).
 */
export const AnalyticsUniqueIdSchema = z
  .string()
  .check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/, 'unique_id: letters, digits and . _ : - (at most 100)'));

/** Accepted for the §7 shape and ignored: the event always goes to the caller's own profile. */
const ignoredEmail = z.optional(z.nullable(z.string().check(z.maxLength(320))));

const queued = z.object({ queued: z.literal(true) });

/**
 * §7 POST /api/klaviyo/track: one event of the caller's, delivered after the answer (202), never blocking. Only the
 * browser's events (not the purchase and redemption events: the server records those); `value` is accepted for §7's
 * shape and ignored, and money properties are dropped (issue 19). Rate limited per user with the PUT.
 */
export const trackAnalyticsEvent = defineContract({
  operationId: 'trackAnalyticsEvent',
  method: 'POST',
  path: '/api/klaviyo/track',
  summary: "Record an analytics event on the caller's own profile (delivered in the background)",
  tags: ['analytics'],
  access: 'user',
  status: 202,
  body: z.object({
    email: ignoredEmail,
    eventName: z.enum(
      BROWSER_ANALYTICS_EVENT_NAMES,
      'eventName: not an event the browser may send (purchases and redemptions are recorded by the server)',
    ),
    properties: z.optional(boundedProperties),
    /** Accepted and ignored: an event's value (revenue) comes only from the server's own events. */
    value: z.optional(
      z.nullable(z.number().check(z.minimum(0), z.maximum(1_000_000), z.refine(Number.isFinite, 'value: a number'))),
    ),
    unique_id: z.optional(AnalyticsUniqueIdSchema),
  }),
  response: queued,
});

const name = z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(100))));

/** §7 PUT /api/klaviyo/track: updates the caller's own profile (a different `email` is ignored). */
export const identifyAnalyticsProfile = defineContract({
  operationId: 'identifyAnalyticsProfile',
  method: 'PUT',
  path: '/api/klaviyo/track',
  summary: "Update the caller's own analytics profile (delivered in the background)",
  tags: ['analytics'],
  access: 'user',
  status: 202,
  body: z.object({
    email: ignoredEmail,
    firstName: name,
    lastName: name,
    /** E.164, as the provider requires ('+14155550123'); empty means none. */
    phoneNumber: z.optional(
      z.nullable(
        z.string().check(z.trim(), z.regex(/^(?:\+[1-9]\d{6,14})?$/, 'phoneNumber: an international number (+…)')),
      ),
    ),
    properties: z.optional(boundedProperties),
  }),
  response: queued,
});

export const AnalyticsDeliverySchema = z.object({
  id: z.int(),
  kind: z.enum(['event', 'profile']),
  email: z.string(),
  /** The event name; null for a profile update. */
  name: z.nullable(z.string()),
  unique_id: z.nullable(z.string()),
  properties: AnalyticsPropertiesSchema,
  value: z.nullable(z.number()),
  time: z.string(),
  delivered_at: z.string(),
});
export type AnalyticsDelivery = z.infer<typeof AnalyticsDeliverySchema>;

/** What the sandbox analytics adapter received, newest first (staff only). Empty with the real provider. */
export const listAnalyticsDeliveries = defineContract({
  operationId: 'listAnalyticsDeliveries',
  method: 'GET',
  path: '/staff/analytics-events',
  summary: 'Analytics events and profile updates the sandbox adapter received, newest first (staff only)',
  tags: ['analytics'],
  access: 'staff',
  query: z.object({
    page: z.optional(z.string().check(z.regex(/^[1-9]\d{0,5}$/, 'page: a whole number from 1'))),
    page_size: z.optional(z.string().check(z.regex(/^(?:[1-9]|[1-9]\d|100)$/, 'page_size: 1 to 100'))),
  }),
  response: z.object({
    adapter: z.string(),
    page: z.int(),
    page_size: z.int(),
    total: z.int(),
    events: z.array(AnalyticsDeliverySchema),
  }),
});

/** The unique ids the server's own events use; the browser's copies of the same events use them too. */
export const ANALYTICS_EVENT_IDS = {
  upgradeOrder: (orderId: number | string) => `upgrade-order-${orderId}`,
  tokenRedemption: (redemptionId: number | string) => `upgrade-token-${redemptionId}`,
} as const;
