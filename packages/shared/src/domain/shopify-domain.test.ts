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
    [
      'https://my-store.myshopify.com/admin',
      {
        ok: false,
        error: 'Please enter a valid Shopify store domain (my-store.myshopify.com/admin.myshopify.com)',
      },
    ],
    ['https://', { ok: false, error: 'Please enter a valid Shopify store domain ()' }],
  ])('%j → %j', (input, expected) => {
    expect(validateShopifyDomainInput(input)).toEqual(expected);
  });
});

describe('§5 validateWizardDomain', () => {
  it.each<[string, string, string | null, boolean, ShopifyDomainResult]>([
    ['selected, nothing typed', '', 'picked.myshopify.com', true, { ok: true, domain: 'picked.myshopify.com' }],
    ['selected, whitespace typed', '   ', 'picked.myshopify.com', true, { ok: true, domain: 'picked.myshopify.com' }],
    ['typed wins over selected', 'typed', 'picked.myshopify.com', true, { ok: true, domain: 'typed.myshopify.com' }],
    [
      'typed, no stores listed',
      'https://Typed.myshopify.com/',
      null,
      false,
      { ok: true, domain: 'typed.myshopify.com' },
    ],
    [
      'nothing, stores listed',
      '',
      null,
      true,
      { ok: false, error: 'Please select a store or enter a domain manually' },
    ],
    [
      'nothing, no stores listed',
      '',
      null,
      false,
      { ok: false, error: 'Please enter or select a valid Shopify domain' },
    ],
    [
      'empty selection counts as none',
      ' ',
      '',
      true,
      { ok: false, error: 'Please select a store or enter a domain manually' },
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
