import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient } from './query-client';
import { dropFirstDataOfAnotherSession, FIRST_DATA_ELEMENT_ID, seedFirstData } from './first-data';
import { queryKeys } from './query-keys';
import { clearSessionToken, mirrorSessionCookie, SESSION_COOKIE, setSessionToken } from './session-token';
import { STORAGE_KEYS } from './storage-keys';

const ME = { id: 7, email: 'demo@example.com', name: '</script> Demo', role: null };
const KEYS = [
  {
    id: 1,
    api_key: 'KEY-1',
    pro: true,
    lite: false,
    linked_app_store: null,
    main_url: null,
    myshopify: null,
    secondary_url: null,
  },
];
const HOMEPAGE = { updates: [] };

function inline(data: unknown): void {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = FIRST_DATA_ELEMENT_ID;
  // As the server writes it: `<` escaped.
  element.textContent = JSON.stringify(data).replace(/</g, '\\u003c');
  document.head.append(element);
}

afterEach(() => {
  document.getElementById(FIRST_DATA_ELEMENT_ID)?.remove();
  clearSessionToken();
  localStorage.clear();
});

describe('the first data the server put into the page', () => {
  // The dashboard's page, where its session cookie is read.
  beforeEach(() => history.pushState(null, '', '/customer/my-keys'));
  afterEach(() => history.pushState(null, '', '/'));

  it('fills the query cache before the first render, the feed kept as the offline fallback', () => {
    setSessionToken('session-token-0123456789abcdef');
    inline({ me: ME, keys: KEYS, keysHealth: { keys: [] }, homepage: HOMEPAGE, config: { links: {}, sandbox: true } });
    const client = createQueryClient();
    seedFirstData(client);
    expect(client.getQueryData(queryKeys.me)).toEqual(ME);
    expect(client.getQueryData(queryKeys.keys)).toEqual(KEYS);
    expect(client.getQueryData(queryKeys.keysHealth)).toEqual({ keys: [] });
    expect(client.getQueryData(queryKeys.publicConfig)).toEqual({ links: {}, sandbox: true });
    expect(client.getQueryData(queryKeys.homepageFeed)).toEqual({ data: HOMEPAGE, fromCache: false });
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.homepageData) ?? 'null')).toEqual(HOMEPAGE);
    // Seeding again (StrictMode's second initializer) gives the same cache.
    const again = createQueryClient();
    seedFirstData(again);
    expect(again.getQueryData(queryKeys.me)).toEqual(ME);
  });

  it('leaves out what the server left out, and everything when this browser has no session', () => {
    setSessionToken('session-token-0123456789abcdef');
    inline({ me: ME });
    const client = createQueryClient();
    seedFirstData(client);
    expect(client.getQueryData(queryKeys.me)).toEqual(ME);
    expect(client.getQueryData(queryKeys.keys)).toBeUndefined();

    clearSessionToken();
    const signedOut = createQueryClient();
    seedFirstData(signedOut);
    expect(signedOut.getQueryData(queryKeys.me)).toBeUndefined();
  });

  it("is not used when the page's cookie is another session's (a sign-in written into storage since)", () => {
    setSessionToken('staff-session-token-0123456789');
    // Another person's token in storage, as a second sign-in in this browser leaves it before its cookie is written.
    localStorage.setItem(STORAGE_KEYS.sessionToken, 'customer-session-token-0123456789');
    inline({ me: ME, keys: KEYS });
    const client = createQueryClient();
    seedFirstData(client);
    expect(client.getQueryData(queryKeys.me)).toBeUndefined();
    expect(client.getQueryData(queryKeys.keys)).toBeUndefined();
    // As main.tsx starts: the other session's data leaves the page before the cookie is written for this one.
    dropFirstDataOfAnotherSession();
    mirrorSessionCookie();
    seedFirstData(client);
    expect(client.getQueryData(queryKeys.keys)).toBeUndefined();
    expect(document.getElementById(FIRST_DATA_ELEMENT_ID)).toBeNull();
    // The next page, read with this session's cookie, is used.
    inline({ me: ME, keys: KEYS });
    dropFirstDataOfAnotherSession();
    seedFirstData(client);
    expect(client.getQueryData(queryKeys.keys)).toEqual(KEYS);
  });

  it('does nothing without the element or with unreadable text', () => {
    setSessionToken('session-token-0123456789abcdef');
    const client = createQueryClient();
    seedFirstData(client);
    expect(client.getQueryCache().getAll()).toHaveLength(0);
    inline('{');
    document.getElementById(FIRST_DATA_ELEMENT_ID)!.textContent = '{ not json';
    seedFirstData(client);
    expect(client.getQueryCache().getAll()).toHaveLength(0);
  });
});

describe('the session cookie', () => {
  const cookie = () => document.cookie.split('; ').find((part) => part.startsWith(`${SESSION_COOKIE}=`));
  // The cookie is scoped to the pages under /customer: read it from one of them.
  beforeEach(() => history.pushState(null, '', '/customer/my-keys'));
  afterEach(() => history.pushState(null, '', '/'));

  it('mirrors the token on sign-in, only under /customer, and is gone on sign-out', () => {
    setSessionToken('session-token-0123456789abcdef');
    expect(cookie()).toBe(`${SESSION_COOKIE}=session-token-0123456789abcdef`);
    history.pushState(null, '', '/staff/keys');
    expect(cookie()).toBeUndefined();
    history.pushState(null, '', '/customer/my-keys');
    clearSessionToken();
    expect(cookie()).toBeUndefined();
  });

  it('is written again for a session that has none, and not for a browser without one', () => {
    mirrorSessionCookie();
    expect(cookie()).toBeUndefined();
    localStorage.setItem(STORAGE_KEYS.sessionToken, 'session-token-0123456789abcdef');
    mirrorSessionCookie();
    expect(cookie()).toBe(`${SESSION_COOKIE}=session-token-0123456789abcdef`);
  });
});
