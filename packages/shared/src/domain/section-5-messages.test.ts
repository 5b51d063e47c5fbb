import { describe, expect, it } from 'vitest';
import { validateWizardDomain } from './shopify-domain';
import { validateConnectionDomains, type ConnectionDomainsInput } from './website-domain';

/**
 * Every §5 message of the wizard's Domain step and of the edit panel's Setup URLs step, each with the exact situation
 * that shows it (ADR 008). The text is the spec's, character for character.
 */

type Wizard = { typed: string; selected: string | null; storesListed: boolean };

describe('§5 wizard Domain step: each message and the situation that shows it', () => {
  it.each<[message: string, situation: string, input: Wizard]>([
    [
      'Please enter your Shopify store domain',
      'nothing typed (empty or whitespace), no store chosen, no stores listed',
      { typed: '   ', selected: null, storesListed: false },
    ],
    [
      'Please select a store or enter a domain manually',
      'nothing typed, no store chosen, the user has stores listed',
      { typed: '', selected: null, storesListed: true },
    ],
    [
      'Please enter or select a valid Shopify domain',
      'text typed that holds no host once normalised ("https://", "///"), no store chosen',
      { typed: 'https://', selected: null, storesListed: true },
    ],
    [
      'Please enter or select a valid Shopify domain',
      'the same with no stores listed',
      { typed: '///', selected: null, storesListed: false },
    ],
    [
      'Please enter a valid Shopify store domain (-x-.myshopify.com)',
      'text typed with a host that is not a valid store name (shown normalised, as typed)',
      { typed: 'HTTPS://-x-.myshopify.com/', selected: null, storesListed: false },
    ],
  ])('%s: %s', (message, _situation, input) => {
    expect(validateWizardDomain(input)).toEqual({ ok: false, error: message });
  });
});

describe('§5 edit panel Setup URLs step: each message and the situation that shows it', () => {
  it.each<[message: string, situation: string, input: ConnectionDomainsInput]>([
    [
      'Please enter at least one domain',
      "website, platform and secondary fields all empty, whitespace or 'None'",
      { main_url: ' ', myshopify: 'None', secondary_url: '' },
    ],
    [
      'Please enter a valid domain (intranet.local)',
      'a website (or secondary) host whose suffix is not a real public suffix',
      { main_url: 'https://intranet.local:8080/', myshopify: 'ok-store' },
    ],
    [
      'Please enter a valid domain (https://)',
      'a website (or secondary) field with text but no host: the text is shown as typed',
      { main_url: 'shop.com', secondary_url: 'https://' },
    ],
    [
      'Please enter a valid Shopify store domain (bad_name.myshopify.com)',
      'a platform (myshopify) field that is not a valid store name',
      { main_url: 'shop.com', myshopify: 'bad_name' },
    ],
  ])('%s: %s', (message, _situation, input) => {
    expect(validateConnectionDomains(input)).toEqual({ ok: false, error: message });
  });

  it('\'Converted "{original}" to "{main}". Both domains will be whitelisted.\': a website or secondary subdomain', () => {
    const result = validateConnectionDomains({ main_url: 'www.münchen.de', secondary_url: 'eu.shop.co.uk' });
    expect(result).toMatchObject({
      ok: true,
      notices: [
        'Converted "www.xn--mnchen-3ya.de" to "xn--mnchen-3ya.de". Both domains will be whitelisted.',
        'Converted "eu.shop.co.uk" to "shop.co.uk". Both domains will be whitelisted.',
      ],
    });
  });

  it('no notice for a registrable domain or a platform domain', () => {
    const result = validateConnectionDomains({ main_url: 'shop.com', myshopify: 'shop.myshopify.com' });
    expect(result).toMatchObject({ ok: true, notices: [] });
  });
});
