import { useEffect } from 'react';
import {
  identifyAnalyticsProfile,
  trackAnalyticsEvent,
  withoutMoneyProperties,
  type AnalyticsProperties,
  type BrowserAnalyticsEventName,
} from '@keyport/shared/contracts/analytics';
import { getSessionToken } from './session-token';

export type { AnalyticsProperties, BrowserAnalyticsEventName };

/** sessionStorage: set once Active on Site was sent in this browser session (a tab and its reloads). */
export const ACTIVE_ON_SITE_SESSION_KEY = 'keyport.analytics.activeOnSite';

export interface TrackOptions {
  /** The provider counts an event sent twice with one id once. */
  uniqueId?: string;
}

export interface AnalyticsProfile {
  firstName?: string | null;
  lastName?: string | null;
  phoneNumber?: string | null;
  properties?: AnalyticsProperties;
}

/**
 * Sends one analytics call and forgets it: `keepalive` lets it finish when the page is leaving, nothing is awaited
 * by the caller, and a failure is only a console warning (§8: analytics failures are only logged, never block the
 * user). Signed-out visitors send nothing (the route is for signed-in users; the server names the profile).
 */
function send(method: 'POST' | 'PUT', body: object): void {
  try {
    const token = getSessionToken();
    if (!token) return;
    const path = method === 'POST' ? trackAnalyticsEvent.path : identifyAnalyticsProfile.path;
    fetch(path, {
      method,
      keepalive: true,
      headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Token ${token}` },
      body: JSON.stringify(body),
    }).then(
      (response) => {
        if (!response.ok) console.warn(`Analytics call failed (${response.status})`);
      },
      (error: unknown) => console.warn('Analytics call failed', error),
    );
  } catch (error) {
    // fetch itself can throw synchronously (a keepalive body over the browser's limit, a missing fetch).
    console.warn('Analytics call failed', error);
  }
}

/**
 * Records one of §3's browser events on the signed-in person's profile. Never throws, returns nothing to await.
 * Issue 19: purchases and redemptions are the server's events (from settled orders), and amounts reach the provider
 * only through them: the server refuses the first and drops the second, so neither is sent.
 */
export function track(
  eventName: BrowserAnalyticsEventName,
  properties: AnalyticsProperties = {},
  options: TrackOptions = {},
): void {
  send('POST', {
    eventName,
    properties: withoutMoneyProperties(properties),
    ...(options.uniqueId ? { unique_id: options.uniqueId } : {}),
  });
}

/** Updates the signed-in person's own profile (the server fills in the email). Never throws. */
export function identify(profile: AnalyticsProfile): void {
  send('PUT', {
    ...(profile.firstName !== undefined ? { firstName: profile.firstName } : {}),
    ...(profile.lastName !== undefined ? { lastName: profile.lastName } : {}),
    ...(profile.phoneNumber ? { phoneNumber: profile.phoneNumber } : {}),
    ...(profile.properties ? { properties: withoutMoneyProperties(profile.properties) } : {}),
  });
}

/** Active on Site, at most once per browser session and only when signed in. Never throws. */
export function trackActiveOnSite(properties: AnalyticsProperties = {}): void {
  try {
    if (!getSessionToken()) return;
    if (sessionStorage.getItem(ACTIVE_ON_SITE_SESSION_KEY)) return;
    sessionStorage.setItem(ACTIVE_ON_SITE_SESSION_KEY, '1');
  } catch {
    return; // storage refused (privacy mode): better no event than one per page view
  }
  track('Active on Site', properties);
}

/** Sends Active on Site once per browser session, from a component that only renders for a signed-in person. */
export function useActiveOnSite(): void {
  useEffect(() => trackActiveOnSite(), []);
}
