import { ApiError } from '../../../lib/api-client';

/** §8 "Connect and token" toasts. Server error text is shown as it is. */
export const CONNECT_MESSAGES = {
  domainNotSet: 'Domain not set. Please go back and set your domain first.',
  noToken: 'No token received from server',
  generateFailed: 'Failed to generate auth token',
  connectionFailed: 'Failed to connect to server. Please try again.',
  validateFailed: 'Failed to validate domain. Please try again.',
} as const;

/** The message for a failed token generation. */
export function tokenErrorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.status === 0 ? CONNECT_MESSAGES.connectionFailed : error.message;
  return CONNECT_MESSAGES.generateFailed;
}

/** The message for a failed domain save in the wizard. */
export function domainErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status !== 0) return error.message;
  return CONNECT_MESSAGES.validateFailed;
}
