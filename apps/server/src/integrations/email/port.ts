export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}

/** An outbox row on its way out. */
export interface OutgoingEmail extends EmailMessage {
  /**
   * The same on every attempt to send one outbox row, and on no other row (`keyport-email-<id>-<created ms>`). The SMTP
   * adapter makes it the Message-ID, so a row sent twice (a worker that died between the SMTP server's answer and
   * marking the row sent) arrives as the same message twice, which mail systems that deduplicate by Message-ID show
   * once (ADR 051).
   */
  key: string;
}

/** Sends one email. Adapters: `smtp` (nodemailer, with SMTP_URL) and `log` (the offline default). */
export interface EmailPort {
  readonly name: string;
  send(message: OutgoingEmail): Promise<void>;
}
