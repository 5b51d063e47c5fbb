import nodemailer from 'nodemailer';
import type { EmailPort } from './port';

/** The real adapter: delivers through the SMTP server in SMTP_URL. */
export function createSmtpEmailAdapter(smtpUrl: string, from: string): EmailPort {
  const transport = nodemailer.createTransport(smtpUrl);
  const domain = senderDomain(from);
  return {
    name: 'smtp',
    async send(message) {
      await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        // One Message-ID per outbox row, on every attempt (ADR 051); on the sender's domain, as nodemailer's own are.
        messageId: `<${message.key}@${domain}>`,
      });
    },
  };
}

/** The domain of the sender's address (`Keyport <no-reply@example.com>` → `example.com`). */
export function senderDomain(from: string): string {
  return /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1]?.toLowerCase() ?? 'localhost';
}
