import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SHOPIFY_DOMAIN_MESSAGES,
  isMyshopifyDomain,
  normaliseShopifyDomain,
  validateShopifyDomainInput,
  validateWizardDomain,
  type ShopifyDomainResult,
} from './shopify-domain';

describe('§5 SHOPIFY_DOMAIN_MESSAGES are the exact spec text', () => {
  it.each<[string, string]>([
    [SHOPIFY_DOMAIN_MESSAGES.empty, 'Please enter your Shopify store domain'],
    [SHOPIFY_DOMAIN_MESSAGES.noSelection, 'Please enter or select a valid Shopify domain'],
    [SHOPIFY_DOMAIN_MESSAGES.selectOrEnter, 'Please select a store or enter a domain manually'],
    [
      SHOPIFY_DOMAIN_MESSAGES.invalid('bad_name.myshopify.com'),
      'Please enter a valid Shopify store domain (bad_name.myshopify.com)',
    ],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe('§5 normaliseShopifyDomain', () => {
  it.each<[string, string]>([
    ['my-store', 'my-store.myshopify.com'],
    ['  My-Store  ', 'my-store.myshopify.com'],
    ['my-store.myshopify.com', 'my-store.myshopify.com'],
    ['MY-STORE.MYSHOPIFY.COM', 'my-store.myshopify.com'],
    ['https://my-store.myshopify.com', 'my-store.myshopify.com'],
    ['http://my-store.myshopify.com/', 'my-store.myshopify.com'],
    ['HTTPS://my-store.myshopify.com///', 'my-store.myshopify.com'],
    ['https://my-store', 'my-store.myshopify.com'],
    ['shop.com', 'shop.com.myshopify.com'],
    ['', ''],
    ['   ', ''],
    ['https://', ''],
    // What a person pastes: a trailing dot, a port, a path, a query or a fragment.
    ['my-store.myshopify.com.', 'my-store.myshopify.com'],
    ['my-store.myshopify.com:443', 'my-store.myshopify.com'],
    ['https://my-store.myshopify.com/admin/themes?x=1', 'my-store.myshopify.com'],
    ['my-store.myshopify.com#top', 'my-store.myshopify.com'],
    ['my-store?ref=mail', 'my-store.myshopify.com'],
    ['///', ''],
    ['https://https://my-store.myshopify.com/', 'my-store.myshopify.com'],
    ['?x=1', ''],
    ['  https://  ', ''],
    // WHATWG domainToASCII mapping: full-width letters are the ASCII name; other Unicode becomes punycode.
    ['ＭＹ－ＳＴＯＲＥ', 'my-store.myshopify.com'],
    ['münchen', 'xn--mnchen-3ya.myshopify.com'],
  ])('%j → %j', (input, expected) => {
    expect(normaliseShopifyDomain(input)).toBe(expected);
  });
});

describe('§5 isMyshopifyDomain', () => {
  it.each<[string, boolean]>([
    ['abc.myshopify.com', true],
    ['a-b-9.myshopify.com', true],
    ['ABC.myshopify.com', false],
    ['a.b.myshopify.com', false],
    ['a_b.myshopify.com', false],
    ['.myshopify.com', false],
    ['abc.myshopify.com.evil.com', false],
    ['myshopify.com', false],
    ['a.myshopify.com', true],
    ['1.myshopify.com', true],
    ['a--b.myshopify.com', true],
    // A store name is one DNS label: no hyphen at either end, at most 63 characters, plain ASCII.
    ['-x-.myshopify.com', false],
    ['-x.myshopify.com', false],
    ['x-.myshopify.com', false],
    ['-.myshopify.com', false],
    [`${'a'.repeat(63)}.myshopify.com`, true],
    [`${'a'.repeat(64)}.myshopify.com`, false],
    ['xn--mnchen-3ya.myshopify.com', false],
    ['my-store.myshopify.com.', false],
  ])('%j → %s', (host, expected) => {
    expect(isMyshopifyDomain(host)).toBe(expected);
  });
});

describe('§5 validateShopifyDomainInput', () => {
  it.each<[string, ShopifyDomainResult]>([
    ['', { ok: false, error: 'Please enter your Shopify store domain' }],
    ['   ', { ok: false, error: 'Please enter your Shopify store domain' }],
    ['my-store', { ok: true, domain: 'my-store.myshopify.com' }],
    ['https://My-Store.myshopify.com/', { ok: true, domain: 'my-store.myshopify.com' }],
    ['shop.com', { ok: false, error: 'Please enter a valid Shopify store domain (shop.com.myshopify.com)' }],
    ['my store', { ok: false, error: 'Please enter a valid Shopify store domain (my store.myshopify.com)' }],
    ['my_store', { ok: false, error: 'Please enter a valid Shopify store domain (my_store.myshopify.com)' }],
    ['https://my-store.myshopify.com/admin', { ok: true, domain: 'my-store.myshopify.com' }],
    ['HTTPS://My-Store.MyShopify.com.:443/?x=1#y', { ok: true, domain: 'my-store.myshopify.com' }],
    ['ＭＹ－ＳＴＯＲＥ', { ok: true, domain: 'my-store.myshopify.com' }],
    ['-x-', { ok: false, error: 'Please enter a valid Shopify store domain (-x-.myshopify.com)' }],
    ['-x-.myshopify.com', { ok: false, error: 'Please enter a valid Shopify store domain (-x-.myshopify.com)' }],
    ['store-', { ok: false, error: 'Please enter a valid Shopify store domain (store-.myshopify.com)' }],
    [
      'a'.repeat(64),
      { ok: false, error: `Please enter a valid Shopify store domain (${'a'.repeat(64)}.myshopify.com)` },
    ],
    // Shopify issues ASCII store names only; the message shows the name as typed, not its punycode.
    ['münchen', { ok: false, error: 'Please enter a valid Shopify store domain (münchen.myshopify.com)' }],
    ['a.b', { ok: false, error: 'Please enter a valid Shopify store domain (a.b.myshopify.com)' }],
    // Text with no host in it: the message shows what was typed rather than an empty '()'.
    ['https://', { ok: false, error: 'Please enter a valid Shopify store domain (https://)' }],
    ['///', { ok: false, error: 'Please enter a valid Shopify store domain (///)' }],
  ])('%j → %j', (input, expected) => {
    expect(validateShopifyDomainInput(input)).toEqual(expected);
  });
});

/**
 * §5 wizard Domain step, one row per situation (ADR 008). "Typed" is the field's text, "selected" the store picked
 * from the user's list, "listed" whether that list has any store.
 */
describe('§5 validateWizardDomain: which message for which situation', () => {
  const empty = 'Please enter your Shopify store domain';
  const noSelection = 'Please enter or select a valid Shopify domain';
  const selectOrEnter = 'Please select a store or enter a domain manually';
  it.each<[string, string, string | null, boolean, ShopifyDomainResult]>([
    // Nothing typed (empty or whitespace).
    ['nothing typed, no stores listed', '', null, false, { ok: false, error: empty }],
    ['whitespace typed, no stores listed', '  \t ', null, false, { ok: false, error: empty }],
    ['nothing typed, stores listed, none chosen', '', null, true, { ok: false, error: selectOrEnter }],
    ['whitespace typed, stores listed, none chosen', ' ', '', true, { ok: false, error: selectOrEnter }],
    ['nothing typed, a store chosen', '', 'picked.myshopify.com', true, { ok: true, domain: 'picked.myshopify.com' }],
    [
      'whitespace typed, a store chosen',
      '   ',
      'picked.myshopify.com',
      true,
      { ok: true, domain: 'picked.myshopify.com' },
    ],
    // Typed text with no host in it.
    ['"https://" typed, no stores listed', 'https://', null, false, { ok: false, error: noSelection }],
    ['"///" typed, stores listed, none chosen', '///', null, true, { ok: false, error: noSelection }],
    ['"http://?" typed, none chosen', 'http://?', null, false, { ok: false, error: noSelection }],
    [
      '"https://" typed, a store chosen',
      'https://',
      'picked.myshopify.com',
      true,
      { ok: true, domain: 'picked.myshopify.com' },
    ],
    // Typed text with a host: it wins over a chosen store.
    ['typed wins over selected', 'typed', 'picked.myshopify.com', true, { ok: true, domain: 'typed.myshopify.com' }],
    [
      'typed URL, no stores listed',
      'https://Typed.myshopify.com/',
      null,
      false,
      { ok: true, domain: 'typed.myshopify.com' },
    ],
    [
      'typed admin URL',
      'https://typed.myshopify.com/admin?x=1',
      null,
      true,
      { ok: true, domain: 'typed.myshopify.com' },
    ],
    [
      'invalid typed',
      'bad_shop',
      null,
      true,
      { ok: false, error: 'Please enter a valid Shopify store domain (bad_shop.myshopify.com)' },
    ],
    [
      'invalid typed beats valid selection',
      'bad shop',
      'picked.myshopify.com',
      true,
      { ok: false, error: 'Please enter a valid Shopify store domain (bad shop.myshopify.com)' },
    ],
    [
      'hyphen at the ends of the store name',
      '-x-.myshopify.com',
      null,
      false,
      { ok: false, error: 'Please enter a valid Shopify store domain (-x-.myshopify.com)' },
    ],
  ])('%s', (_label, typed, selected, storesListed, expected) => {
    expect(validateWizardDomain({ typed, selected, storesListed })).toEqual(expected);
  });
});

describe('robustness', () => {
  it('never throws and only ever returns valid myshopify domains', () => {
    fc.assert(
      fc.property(fc.string(), fc.option(fc.string()), fc.boolean(), (typed, selected, storesListed) => {
        const result = validateWizardDomain({ typed, selected, storesListed });
        if (result.ok) expect(isMyshopifyDomain(result.domain)).toBe(true);
      }),
    );
  });
});
