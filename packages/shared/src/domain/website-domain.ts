import { parse } from 'tldts';
import { normaliseOptionalText } from './empty-value';
import { toAsciiHostname, typedHost } from './hostname';
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

/**
 * Top-level names that are in the Public Suffix List's ICANN section but never a public website: 'arpa' (DNS
 * infrastructure, including 'home.arpa' for home networks and the reverse-lookup zones) and 'onion' (Tor only,
 * RFC 7686). Everything else is the list's decision (ADR 008).
 */
const NOT_A_WEBSITE_TLDS = new Set(['arpa', 'onion']);

/**
 * The registrable domain of an ASCII host when its suffix is a real public suffix (ICANN or private section of the
 * Public Suffix List, via tldts), else null. Unknown, reserved and special-use names ('local', 'invalid', 'test',
 * 'localhost', 'example', 'internal', 'lan') fall to the list's default rule and are neither, so they are refused; a
 * bare public suffix ('co.uk', 'github.io') has no registrable domain.
 */
function registrableDomain(host: string): string | null {
  const parsed = parse(host, { allowPrivateDomains: true, extractHostname: false });
  if (parsed.isIp || !(parsed.isIcann || parsed.isPrivate) || !parsed.domain) return null;
  if (NOT_A_WEBSITE_TLDS.has(host.slice(host.lastIndexOf('.') + 1))) return null;
  return parsed.domain;
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
 * §5 website domain: lowercase, trim, strip http(s):// and whatever a pasted URL carries after the host (port, path,
 * query, fragment, one trailing dot). Unicode becomes punycode (WHATWG domainToASCII: 'münchen.de' →
 * 'xn--mnchen-3ya.de'). The host must be an ASCII DNS name under a real public suffix, else 'Please enter a valid
 * domain ({host})' with the host as typed (or the text itself when it holds no host, e.g. 'https://'); empty input
 * gives 'Please enter at least one domain'. A subdomain becomes its registrable domain per the Public Suffix List
 * (tldts, private suffixes included, so 'shop.myshopify.com' stays whole) with the 'Converted …' notice. `host` and
 * `original` are always ASCII: they are what the token whitelists.
 */
export function normaliseWebsiteDomain(input: string): WebsiteDomainResult {
  const text = String(input).trim();
  if (text === '') return { ok: false, error: WEBSITE_DOMAIN_MESSAGES.required };
  const original = toAsciiHostname(text);
  const main = original === null ? null : registrableDomain(original);
  if (original === null || main === null) {
    const typed = typedHost(text);
    return { ok: false, error: WEBSITE_DOMAIN_MESSAGES.invalid(typed === '' ? text.toLowerCase() : typed) };
  }
  if (main === original) return { ok: true, host: original, original };
  return { ok: true, host: main, original, notice: WEBSITE_DOMAIN_MESSAGES.converted(original, main) };
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
