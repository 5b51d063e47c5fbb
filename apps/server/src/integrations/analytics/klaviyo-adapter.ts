import { AnalyticsDeliveryError, type AnalyticsEvent, type AnalyticsPort, type AnalyticsProfile } from './port';

/** The Klaviyo API revision these request bodies follow (sent in the `revision` header of every call). */
export const KLAVIYO_REVISION = '2024-10-15';
const JSON_API = 'application/vnd.api+json';

export interface KlaviyoOptions {
  privateKey: string;
  /** https://a.klaviyo.com, or a local fake in tests. */
  baseUrl: string;
  timeoutMs?: number;
}

/**
 * The real adapter: Klaviyo's Events API (`POST /api/events`, which creates the profile by email when it is new) and
 * profile import (`POST /api/profile-import`, create or update by email), as JSON:API bodies with the private key
 * and the revision header. Plain `fetch`: two calls do not need the `klaviyo-api` client and its dependencies.
 */
export function createKlaviyoAdapter(options: KlaviyoOptions): AnalyticsPort {
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function post(path: string, body: unknown): Promise<void> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Klaviyo-API-Key ${options.privateKey}`,
          revision: KLAVIYO_REVISION,
          accept: JSON_API,
          'content-type': JSON_API,
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const reason =
        error instanceof Error && error.name === 'TimeoutError' ? `no answer in ${timeoutMs} ms` : 'unreachable';
      throw new AnalyticsDeliveryError(`Klaviyo ${path}: ${reason}`, true);
    }
    if (response.ok) {
      await response.body?.cancel();
      return;
    }
    const detail = await errorDetail(response);
    const retryable = response.status === 408 || response.status === 429 || response.status >= 500;
    throw new AnalyticsDeliveryError(
      `Klaviyo ${path}: ${response.status}${detail ? ` ${detail}` : ''}`,
      retryable,
      response.status,
    );
  }

  return {
    name: 'klaviyo',
    sendEvent: (event) => post('/api/events', eventBody(event)),
    upsertProfile: (profile) => post('/api/profile-import', profileBody(profile)),
  };
}

/** Klaviyo's create-event body: the metric by name and the profile by email in the event's attributes. */
export function eventBody(event: AnalyticsEvent) {
  return {
    data: {
      type: 'event',
      attributes: {
        properties: event.properties,
        time: event.time.toISOString(),
        ...(event.value !== null ? { value: event.value, value_currency: 'USD' } : {}),
        unique_id: event.uniqueId,
        metric: { data: { type: 'metric', attributes: { name: event.name } } },
        profile: { data: { type: 'profile', attributes: { email: event.email } } },
      },
    },
  };
}

export function profileBody(profile: AnalyticsProfile) {
  return {
    data: {
      type: 'profile',
      attributes: {
        email: profile.email,
        ...(profile.firstName ? { first_name: profile.firstName } : {}),
        ...(profile.lastName ? { last_name: profile.lastName } : {}),
        ...(profile.phoneNumber ? { phone_number: profile.phoneNumber } : {}),
        properties: profile.properties,
      },
    },
  };
}

/** The first JSON:API error's title and detail (Klaviyo's own words, never our key), cut short. */
async function errorDetail(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { errors?: { title?: unknown; detail?: unknown }[] };
    const first = body.errors?.[0];
    const text = [first?.title, first?.detail].filter((part) => typeof part === 'string').join(': ');
    return text.slice(0, 300);
  } catch {
    return '';
  }
}
