import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedEmail {
  /** The envelope's recipients, as the SMTP server was told (RCPT TO). */
  to: string[];
  subject: string;
  raw: string;
}

export interface SmtpSink {
  /** SMTP_URL for the portal. */
  url: string;
  received: ReceivedEmail[];
  close(): Promise<void>;
}

/** The headers' Subject, unfolded (a long subject continues on lines that start with white space). */
function subjectOf(raw: string): string {
  const headers = raw.split(/\r?\n\r?\n/, 1)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return /^Subject: (.*)$/im.exec(headers)?.[1]?.trim() ?? '';
}

/** A real SMTP server on 127.0.0.1 that keeps every message it accepts (no TLS, no authentication). */
export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedEmail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), subject: subjectOf(raw), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
