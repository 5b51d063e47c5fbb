import { STORAGE_KEYS } from './storage-keys';

export function getSessionToken(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEYS.sessionToken);
  } catch {
    return null;
  }
}

export function setSessionToken(token: string): void {
  localStorage.setItem(STORAGE_KEYS.sessionToken, token);
}

export function clearSessionToken(): void {
  localStorage.removeItem(STORAGE_KEYS.sessionToken);
}
