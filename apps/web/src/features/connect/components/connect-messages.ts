import { isNetworkError, serverMessage } from '../../../lib/api-client';

/** §8 "Connect and token" toasts. Server error text is shown as it is. */
export const CONNECT_MESSAGES = {
  domainNotSet: 'Domain not set. Please go back and set your domain first.',
  noToken: 'No token received from server',
  generateFailed: 'Failed to generate auth token',
  connectionFailed: 'Failed to connect to server. Please try again.',
  // No step shows this one now: Next checks the domain in the browser (ADR 009), and a failed Generate Token has the
  // texts above (or the server's own).
  validateFailed: 'Failed to validate domain. Please try again.',
} as const;

/** The message for a failed save-and-generate: the server's text as it is, else the §8 text for what happened. */
export function tokenErrorMessage(error: unknown): string {
  if (isNetworkError(error)) return CONNECT_MESSAGES.connectionFailed;
  return serverMessage(error) ?? CONNECT_MESSAGES.generateFailed;
}
