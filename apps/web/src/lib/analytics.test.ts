import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACTIVE_ON_SITE_SESSION_KEY, identify, track, trackActiveOnSite, useActiveOnSite } from './analytics';
import { setSessionToken } from './session-token';

const TOKEN = 'session-token-0123456789abcdef';
let fetchMock: ReturnType<typeof vi.fn>;
let warn: ReturnType<typeof vi.spyOn>;
let error: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  setSessionToken(TOKEN);
  sessionStorage.clear();
  fetchMock = vi.fn(async () => new Response(JSON.stringify({ queued: true }), { status: 202 }));
  vi.stubGlobal('fetch', fetchMock);
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  error = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Lets the fire-and-forget promise chains settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const sentBody = (call = 0) => JSON.parse(String((fetchMock.mock.calls[call]![1] as RequestInit).body)) as unknown;

describe('track', () => {
  it('posts the event with keepalive and the session token, and returns nothing to await', async () => {
    const result = track('Selected Upgrade', { upgrade_to: 'PRO' }, { uniqueId: 'sel-1' });
    expect(result).toBeUndefined();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]! as [string, RequestInit];
    expect(url).toBe('/api/klaviyo/track');
    expect(init).toMatchObject({ method: 'POST', keepalive: true });
    expect((init.headers as Record<string, string>).authorization).toBe(`Token ${TOKEN}`);
    expect(sentBody()).toEqual({
      eventName: 'Selected Upgrade',
      properties: { upgrade_to: 'PRO' },
      unique_id: 'sel-1',
    });
    await settle();
    expect(warn).not.toHaveBeenCalled();
  });

  it('never sends money fields (issue 19: the server drops them; amounts come from its own purchase events)', () => {
    track('Started Upgrade Checkout', {
      upgrade_to: 'PRO',
      payment_method: 'card',
      price: 320,
      total: 380.8,
      tax: 60.8,
    });
    identify({ firstName: 'Ada', properties: { plan: 'PRO', lifetime_value: 999 } });
    expect(sentBody(0)).toEqual({
      eventName: 'Started Upgrade Checkout',
      properties: { upgrade_to: 'PRO', payment_method: 'card' },
    });
    expect(sentBody(1)).toEqual({ firstName: 'Ada', properties: { plan: 'PRO' } });
  });

  it('never throws and only warns: a rejected fetch, an error answer, a fetch that throws at once', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    expect(() => track('Active on Site')).not.toThrow();
    fetchMock.mockResolvedValueOnce(new Response('{}', { status: 503 }));
    expect(() => track('Active on Site')).not.toThrow();
    fetchMock.mockImplementationOnce(() => {
      throw new TypeError('keepalive body too large');
    });
    expect(() => track('Active on Site')).not.toThrow();
    await settle();
    expect(warn).toHaveBeenCalledTimes(3);
    expect(error).not.toHaveBeenCalled();
  });

  it('does not wait for the network: it returns while the request is still pending', () => {
    fetchMock.mockImplementation(() => new Promise(() => {}));
    const started = performance.now();
    track('Started Upgrade Checkout', { payment_method: 'card' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('sends nothing when signed out', () => {
    localStorage.clear();
    track('Viewed Upgrade Options');
    identify({ firstName: 'Ada' });
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('identify', () => {
  it('puts the profile fields, never an email (the server uses the account)', () => {
    identify({ firstName: 'Ada', lastName: 'Lovelace', phoneNumber: '+14155550123', properties: { plan: 'PRO' } });
    const [, init] = fetchMock.mock.calls[0]! as [string, RequestInit];
    expect(init.method).toBe('PUT');
    expect(sentBody()).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      phoneNumber: '+14155550123',
      properties: { plan: 'PRO' },
    });
  });
});

describe('Active on Site', () => {
  it('is sent once per browser session, however often it is asked for', () => {
    trackActiveOnSite();
    trackActiveOnSite();
    renderHook(() => useActiveOnSite());
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(sentBody()).toMatchObject({ eventName: 'Active on Site' });
    expect(sessionStorage.getItem(ACTIVE_ON_SITE_SESSION_KEY)).toBe('1');
  });

  it('is sent again in a new session, and not at all when signed out', () => {
    sessionStorage.setItem(ACTIVE_ON_SITE_SESSION_KEY, '1');
    trackActiveOnSite();
    expect(fetchMock).not.toHaveBeenCalled();
    sessionStorage.clear();
    localStorage.clear();
    trackActiveOnSite();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(sessionStorage.getItem(ACTIVE_ON_SITE_SESSION_KEY)).toBeNull();
    setSessionToken(TOKEN);
    renderHook(() => useActiveOnSite());
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
