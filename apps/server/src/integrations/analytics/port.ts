/** Keyport's analytics event, as the port takes it (the adapter maps it to its provider's shape). */
export interface AnalyticsEvent {
  /** The provider counts an event once per unique id (browser and server copies share one). */
  uniqueId: string;
  /** The profile the event belongs to: always the account's own email. */
  email: string;
  /** A §3 event name ('Completed Upgrade Purchase', …). */
  name: string;
  properties: Record<string, unknown>;
  /** The monetary value in US dollars, when the event has one. */
  value: number | null;
  time: Date;
}

/** A profile update (Klaviyo's profile import: create or update by email). */
export interface AnalyticsProfile {
  email: string;
  firstName: string | null;
  lastName: string | null;
  phoneNumber: string | null;
  properties: Record<string, unknown>;
}

/**
 * A failed delivery. `retryable` failures (network, timeout, 429, 5xx) are tried again later with backoff; the
 * others (the provider refused the body for good: 400, 401, 403) are given up at once.
 */
export class AnalyticsDeliveryError extends Error {
  override name = 'AnalyticsDeliveryError';
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

/**
 * Delivers analytics to the provider. Adapters: `klaviyo` (Events and Profiles APIs, with KLAVIYO_PRIVATE_KEY) and
 * `sandbox` (the default: a table staff can read). Called by the analytics outbox after commit, never in a request.
 */
export interface AnalyticsPort {
  readonly name: 'klaviyo' | 'sandbox';
  sendEvent(event: AnalyticsEvent): Promise<void>;
  upsertProfile(profile: AnalyticsProfile): Promise<void>;
}
