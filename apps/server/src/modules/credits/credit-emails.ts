import type { Tier } from '@keyport/shared/domain/tiers';
import type { EmailMessage } from '../../integrations/email/port';

/** Sent through the outbox when a license was bought with credits: the new key. */
export function redeemedKeyEmail(input: { to: string; name: string; tier: Tier; apiKey: string }): EmailMessage {
  return {
    to: input.to,
    subject: `Your new Keyport ${input.tier} license`,
    text: [
      `Hello ${input.name},`,
      '',
      `You bought a ${input.tier} license with credits. Your license key:`,
      '',
      input.apiKey,
      '',
      'It is in your account already: connect it to a store from your dashboard.',
    ].join('\n'),
  };
}
