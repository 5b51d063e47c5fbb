import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, json } from '../test/fake-api';
import { sandboxConfirmer } from './sandbox-confirmer';

afterEach(() => vi.unstubAllGlobals());

const intent = { id: 'pi_sandbox_abc', client_secret: 'pi_sandbox_abc_secret_x' };
const billing = {
  name: 'Ada',
  email: 'ada@example.com',
  address: { line1: '1 Main St', city: 'Springfield', postal_code: '12345', country: 'US' },
  is_business: false,
};

describe('the sandbox card confirmation', () => {
  it('an authorized card is a confirmed payment (the server captures it)', async () => {
    const api = fakeApi({ 'POST /sandbox/stripe/confirm': () => json(200, { status: 'requires_capture' }) });
    expect(await sandboxConfirmer('4242424242424242').confirm(intent, billing)).toEqual({ ok: true });
    expect(api.calls[0]!.body).toEqual({ payment_intent_id: 'pi_sandbox_abc', card_number: '4242424242424242' });
  });

  it("a declined card says the card's message", async () => {
    fakeApi({
      'POST /sandbox/stripe/confirm': () => json(402, { error: 'Your card was declined.', code: 'card_declined' }),
    });
    expect(await sandboxConfirmer('4000000000000002').confirm(intent, billing)).toEqual({
      ok: false,
      message: 'Your card was declined.',
    });
  });

  it('a replaced or cancelled payment says why, never a success (issue 19)', async () => {
    const error = 'This payment was replaced by a newer one. Nothing was charged.';
    fakeApi({ 'POST /sandbox/stripe/confirm': () => json(409, { error, code: 'order_superseded' }) });
    expect(await sandboxConfirmer('4242424242424242').confirm(intent, billing)).toEqual({ ok: false, message: error });
  });

  it("anything else is §8's 'Payment confirmation failed. Please try again.'", async () => {
    fakeApi({ 'POST /sandbox/stripe/confirm': () => json(500, { error: 'Internal', code: 'internal' }) });
    expect(await sandboxConfirmer('4242424242424242').confirm(intent, billing)).toEqual({
      ok: false,
      message: 'Payment confirmation failed. Please try again.',
    });
  });
});
