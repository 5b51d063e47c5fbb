import { STORAGE_KEYS } from './storage-keys';

/**
 * ADR 045: the token is mirrored into a cookie that only the pages under /customer carry, so the server can put the
 * signed-in person's first data into the dashboard's HTML. API calls never send it (they use `Authorization`), and
 * the server reads it only to build that page.
 */
export const SESSION_COOKIE = 'keyport_session';
const COOKIE_SCOPE = '; Path=/customer; SameSite=Lax';
const COOKIE_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

function writeCookie(value: string, maxAge: number): void {
  try {
    const secure = location.protocol === 'https:' ? '; Secure' : '';
    document.cookie = `${SESSION_COOKIE}=${value}${COOKIE_SCOPE}; Max-Age=${maxAge}${secure}`;
  } catch {
    // Cookies disabled: the dashboard asks for its data itself.
  }
}

export function getSessionToken(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEYS.sessionToken);
  } catch {
    return null;
  }
}

export function setSessionToken(token: string): void {
  localStorage.setItem(STORAGE_KEYS.sessionToken, token);
  writeCookie(encodeURIComponent(token), COOKIE_MAX_AGE_SECONDS);
}

export function clearSessionToken(): void {
  localStorage.removeItem(STORAGE_KEYS.sessionToken);
  writeCookie('', 0);
}

/**
 * Whether the page's cookie is this browser's session: the data the server put into the page was read with the cookie,
 * so it is this session's only then (a token written into storage since, by another sign-in, has its own data).
 */
export function sessionCookieIsCurrent(): boolean {
  const token = getSessionToken();
  if (!token) return false;
  try {
    return document.cookie.split('; ').some((part) => part === `${SESSION_COOKIE}=${encodeURIComponent(token)}`);
  } catch {
    return false;
  }
}

/** A session from before the cookie existed (or whose cookie expired) gets it back, for its next page load. */
export function mirrorSessionCookie(): void {
  const token = getSessionToken();
  if (!token || sessionCookieIsCurrent()) return;
  writeCookie(encodeURIComponent(token), COOKIE_MAX_AGE_SECONDS);
}
