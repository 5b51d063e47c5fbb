import type { FastifyBaseLogger } from 'fastify';
import type { EmailPort } from './port';

export interface LogEmailOptions {
  /**
   * Mask license keys, tokens and links in what is logged (production: a log is no place for a customer's key or a
   * password-reset link). Off in development, where the logged reset link is how a person resets offline.
   */
  mask?: boolean;
}

/**
 * The sandbox adapter: the message stays in the outbox table and is printed to the log, so a password reset
 * link works offline. Only used when no SMTP_URL is configured (in production only with SANDBOX_INTEGRATIONS=true,
 * and then masked).
 */
export function createLogEmailAdapter(log: FastifyBaseLogger, options: LogEmailOptions = {}): EmailPort {
  const shown = options.mask ? maskSecrets : (text: string) => text;
  return {
    name: 'log',
    async send(message) {
      log.info(
        { email: { to: message.to, subject: shown(message.subject) } },
        `Email (not sent, no SMTP_URL):\n${shown(message.text)}`,
      );
    },
  };
}

/** Shows the first characters of a secret only: enough to tell two apart in a log, never enough to use one. */
const masked = (secret: string, keep = 4) => `${secret.slice(0, keep)}…[masked]`;

/**
 * One pass over the text, each match replaced whole (a link is not scanned again for keys): a link (a scheme to the
 * next space or quote), a license key (five groups of five letters or digits, `PR0A1-DEM0K-…`), or a token (a run of
 * 20 or more base64url characters, with any dot-separated parts after it: session and reset tokens, JWTs, hashes).
 */
const SECRETS =
  /\b([a-z][a-z0-9+.-]*:\/\/[^\s<>"']+)|\b([0-9A-Z]{5}(?:-[0-9A-Z]{5}){4})\b|([A-Za-z0-9_-]{20,}(?:\.[A-Za-z0-9_-]{2,})*)/gi;
const TOKEN_IN_PATH = /[A-Za-z0-9_-]{20,}/g;

/**
 * An email's text as it may be logged: a link keeps its origin and path (a long path segment masked) but not its query
 * or fragment, where reset and sign-in tokens travel; license keys and tokens show their first characters only.
 */
export function maskSecrets(text: string): string {
  return text.replace(SECRETS, (match, link?: string, licenseKey?: string) => {
    if (licenseKey) return masked(licenseKey, 5);
    if (!link) return masked(match);
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      return masked(link, 8);
    }
    const path = url.pathname.replace(TOKEN_IN_PATH, (token) => masked(token));
    const rest = url.search + url.hash;
    return `${url.origin}${path}${rest ? masked(rest, 1) : ''}`;
  });
}
