import type { Tier } from '@keyport/shared/domain/tiers';
import type { EmailMessage } from '../../integrations/email/port';

interface KeyEmailInput {
  to: string;
  name: string;
  tier: Tier;
  apiKey: string;
}

const connectHint = 'It is in your account already: connect it to a store from your dashboard.';

/** Sent through the outbox for each key staff mint for a customer. */
export function mintedKeyEmail(input: KeyEmailInput): EmailMessage {
  return {
    to: input.to,
    subject: `Your new Keyport ${input.tier} license`,
    text: [
      `Hello ${input.name},`,
      '',
      `Our team added a ${input.tier} license to your account. Your license key:`,
      '',
      input.apiKey,
      '',
      connectHint,
    ].join('\n'),
  };
}

/** Staff re-send a key to its owner. */
export function keyReminderEmail(input: KeyEmailInput): EmailMessage {
  return {
    to: input.to,
    subject: `Your Keyport ${input.tier} license key`,
    text: [
      `Hello ${input.name},`,
      '',
      `As requested, here is your ${input.tier} license key:`,
      '',
      input.apiKey,
      '',
      connectHint,
    ].join('\n'),
  };
}
