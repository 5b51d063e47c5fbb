export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends one email. Adapters: `smtp` (nodemailer, with SMTP_URL) and `log` (the offline default). */
export interface EmailPort {
  readonly name: string;
  send(message: EmailMessage): Promise<void>;
}
