import { describe, expect, it } from 'vitest';
import {
  REPORT_MESSAGES,
  REPORT_ROW_REASONS,
  autoFillMessage,
  licenseMatchHosts,
  normaliseReportedStore,
  parsePastedStores,
} from './store-report';

describe('§5 pasted stores', () => {
  it.each<[pasted: string, kept: string[]]>([
    ['one.com\ntwo.com\nthree.com', ['one.com', 'two.com', 'three.com']],
    ['one.com, two.com,three.com', ['one.com', 'two.com', 'three.com']],
    ['one.com two.com\t three.com', ['one.com', 'two.com', 'three.com']],
    ['https://shop.one.com/products/x http://two.com', ['https://shop.one.com/products/x', 'http://two.com']],
    ['a.com b.com c.com d.com e.com f.com g.com', ['a.com', 'b.com', 'c.com', 'd.com', 'e.com']],
    ['store-one.myshopify.com', ['store-one.myshopify.com']],
    ['some words here and a.io', ['a.io']],
    ['no-tld localhost x.1 1.2.3.4 foo.c', []],
    ['hello, world.', []],
    ['münchen.de shop.example.co.uk/collections', ['münchen.de', 'shop.example.co.uk/collections']],
    ['ftp://x.com mailto:a@b.com', []],
    ['', []],
  ])('%j keeps %j', (pasted, kept) => {
    expect(parsePastedStores(pasted)).toEqual(kept);
  });

  it("says 'Auto-filled {n} store URLs' only when more than one was found", () => {
    expect(autoFillMessage(0)).toBeNull();
    expect(autoFillMessage(1)).toBeNull();
    expect(autoFillMessage(2)).toBe('Auto-filled 2 store URLs');
    expect(autoFillMessage(5)).toBe('Auto-filled 5 store URLs');
  });
});

describe('a reported store, normalised with the shared domain rules', () => {
  it.each<[typed: string, store: string | null]>([
    ['Example.COM', 'example.com'],
    ['https://www.example.com/', 'example.com'],
    ['http://shop.example.co.uk/collections/all?x=1', 'example.co.uk'],
    ['  EXAMPLE.com.  ', 'example.com'],
    ['example.com:8080', 'example.com'],
    ['Pirate-Store.myshopify.com', 'pirate-store.myshopify.com'],
    ['https://www.pirate-store.myshopify.com/products', 'pirate-store.myshopify.com'],
    ['münchen.de', 'xn--mnchen-3ya.de'],
    ['myshopify.com', null],
    ['localhost', null],
    ['not a domain', null],
    ['192.168.1.1', null],
    ['shop.local', null],
    ['', null],
  ])('%j → %j', (typed, store) => {
    expect(normaliseReportedStore(typed)).toBe(store);
  });

  it('matches a store on its own domain against its myshopify name too', () => {
    expect(licenseMatchHosts('acme.com')).toEqual(['acme.com', 'acme.myshopify.com']);
    expect(licenseMatchHosts('acme.myshopify.com')).toEqual(['acme.myshopify.com']);
  });
});

describe('the texts', () => {
  it('are the spec and server texts, verbatim', () => {
    expect(REPORT_ROW_REASONS).toEqual({
      valid: 'Valid',
      invalidDomain: 'This is not a valid store domain.',
      listedTwice: 'This store is listed twice in this report.',
      alreadyReported: 'You have already reported this store.',
      holdsLicense: 'This store holds a license of ours.',
      ownStore: 'This is your own store.',
      seenUnlicensed: 'Seen running an unlicensed copy.',
    });
    expect(REPORT_MESSAGES.allRequired).toBe('Please enter all 5 store domains.');
    expect(REPORT_MESSAGES.credited).toBe('Credit added! All 5 stores were valid.');
    expect(REPORT_MESSAGES.notQualified).toBe('Not all stores qualified. Check the validation status below.');
    expect(REPORT_MESSAGES.failed).toBe('Please try again later.');
  });
});
