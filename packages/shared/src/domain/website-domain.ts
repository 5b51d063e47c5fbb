import { parse } from 'tldts';
import { normaliseOptionalText } from './empty-value';
import { validateShopifyDomainInput } from './shopify-domain';

/**
 * §5 "Edit panel" (Edit Connection / Connect to Store, Setup URLs step): website,
 * Shopify-platform and secondary domains. Shared by browser and server; every function
 * accepts any string and never throws.
 */

/** §5 exact user-facing messages. */
export const WEBSITE_DOMAIN_MESSAGES = {
  required: 'Please enter at least one domain',
  invalid: (host: string): string => `Please enter a valid domain (${host})`,
  converted: (original: string, main: string): string =>
    `Converted "${original}" to "${main}". Both domains will be whitelisted.`,
} as const;

export type WebsiteDomainResult =
  { ok: true; host: string; original: string; notice?: string } | { ok: false; error: string };

export type MyshopifyFieldResult = { ok: true; host: string } | { ok: false; error: string };

export interface ConnectionDomainsInput {
  main_url?: string | null;
  myshopify?: string | null;
  secondary_url?: string | null;
}

export type ConnectionDomainsResult =
  | {
      ok: true;
      main_url: string | null;
      myshopify: string | null;
      secondary_url: string | null;
      notices: string[];
      whitelist: string[];
    }
  | { ok: false; error: string };

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const TLD = /^[a-z]{2,63}$/;

/** name.tld shape: letter/digit/hyphen labels, a final label of 2+ letters (so no IPs). */
function hasDomainShape(host: string): boolean {
  if (host.length > 253) return false;
  const labels = host.split('.');
  const tld = labels[labels.length - 1] ?? '';
  return labels.length >= 2 && TLD.test(tld) && labels.every((label) => LABEL.test(label));
}

/** Stored URL ('https://x', 'None' or null) → bare host, or '' when empty. */
export function stripStoredUrl(url: string | null | undefined): string {
  return normaliseOptionalText(url)
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\/+$/, '');
}

/** §5 "Saved URLs are prefixed": bare host → 'https://{host}' ('' stays ''). */
export function toStoredUrl(host: string): string {
  const bare = stripStoredUrl(host);
  return bare === '' ? '' : `https://${bare}`;
}

/**
 * §5 website domain: lowercase, trim, strip http(s):// and any trailing slash or path;
 * must match name.tld ('Please enter a valid domain ({host})'). A subdomain becomes its
 * registrable domain per the Public Suffix List (tldts, private suffixes included, so
 * 'shop.myshopify.com' stays whole) with the 'Converted …' notice. A bare public suffix
 * ('co.uk') is not a domain and is rejected.
 */
export function normaliseWebsiteDomain(input: string): WebsiteDomainResult {
  const original =
    String(input)
      .trim()
      .toLowerCase()
      .replace(/^https?:\/\//, '')
      .split(/[/?#]/)[0] ?? '';
  const invalid = { ok: false, error: WEBSITE_DOMAIN_MESSAGES.invalid(original) } as const;
  if (!hasDomainShape(original)) return invalid;
  const parsed = parse(original, { allowPrivateDomains: true, extractHostname: false });
  const main = parsed.domain;
  if (parsed.isIp || !main || !hasDomainShape(main)) return invalid;
  if (main === original) return { ok: true, host: original, original };
  return {
    ok: true,
    host: main,
    original,
    notice: WEBSITE_DOMAIN_MESSAGES.converted(original, main),
  };
}

/** §5 edit panel Shopify-platform URL: wizard normalisation; a valid myshopify name is required. */
export function normaliseMyshopifyField(input: string): MyshopifyFieldResult {
  const result = validateShopifyDomainInput(input);
  return result.ok ? { ok: true, host: result.domain } : result;
}

/**
 * §5 edit panel "Save Domains & Generate Token": at least one domain
 * ('Please enter at least one domain'); website and secondary follow the website rules,
 * the platform domain the myshopify rule. Returns the stored website URLs ('https://{host}',
 * or null when empty), the bare myshopify domain, conversion notices and every distinct bare host to whitelist.
 */
export function validateConnectionDomains(input: ConnectionDomainsInput): ConnectionDomainsResult {
  const main = normaliseOptionalText(input.main_url);
  const shop = normaliseOptionalText(input.myshopify);
  const secondary = normaliseOptionalText(input.secondary_url);
  if (main === '' && shop === '' && secondary === '') {
    return { ok: false, error: WEBSITE_DOMAIN_MESSAGES.required };
  }
  const notices = new Set<string>();
  const whitelist = new Set<string>();
  const website = (value: string): { ok: true; url: string | null } | { ok: false; error: string } => {
    if (value === '') return { ok: true, url: null };
    const result = normaliseWebsiteDomain(value);
    if (!result.ok) return result;
    if (result.notice) notices.add(result.notice);
    whitelist.add(result.host).add(result.original);
    return { ok: true, url: toStoredUrl(result.host) };
  };

  const mainResult = website(main);
  if (!mainResult.ok) return mainResult;
  let myshopify: string | null = null;
  if (shop !== '') {
    const result = normaliseMyshopifyField(shop);
    if (!result.ok) return result;
    whitelist.add(result.host);
    // The platform domain is kept bare ('x.myshopify.com'), as the Key entity and the store list carry it.
    myshopify = result.host;
  }
  const secondaryResult = website(secondary);
  if (!secondaryResult.ok) return secondaryResult;

  return {
    ok: true,
    main_url: mainResult.url,
    myshopify,
    secondary_url: secondaryResult.url,
    notices: [...notices],
    whitelist: [...whitelist],
  };
}
