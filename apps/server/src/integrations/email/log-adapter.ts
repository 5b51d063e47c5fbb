import type { FastifyBaseLogger } from 'fastify';
import type { EmailPort } from './port';

/**
 * The sandbox adapter: the message stays in the outbox table and is printed to the log, so a password reset
 * link works offline. Only used when no SMTP_URL is configured.
 */
export function createLogEmailAdapter(log: FastifyBaseLogger): EmailPort {
  return {
    name: 'log',
    async send(message) {
      log.info(
        { email: { to: message.to, subject: message.subject } },
        `Email (not sent, no SMTP_URL):\n${message.text}`,
      );
    },
  };
}
