import nodemailer from 'nodemailer';
import type { EmailPort } from './port';

/** The real adapter: delivers through the SMTP server in SMTP_URL. */
export function createSmtpEmailAdapter(smtpUrl: string, from: string): EmailPort {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    name: 'smtp',
    async send(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
  };
}
