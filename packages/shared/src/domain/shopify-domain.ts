import { toAsciiHostname, typedHost } from './hostname';

/**
 * §5 "Shopify domain (wizard)": the Connect Your Store wizard's Domain step.
 * The same normalisation serves the edit panel's Shopify-platform URL (§5 "Edit panel").
 */

/** §5 exact user-facing messages. */
export const SHOPIFY_DOMAIN_MESSAGES = {
  empty: 'Please enter your Shopify store domain',
  noSelection: 'Please enter or select a valid Shopify domain',
  selectOrEnter: 'Please select a store or enter a domain manually',
  invalid: (host: string): string => `Please enter a valid Shopify store domain (${host})`,
} as const;

export const MYSHOPIFY_SUFFIX = '.myshopify.com';

/**
 * §5: a lowercase alphanumeric-and-hyphen name followed by .myshopify.com. The name is one DNS label (1–63
 * characters, no hyphen at either end) in plain ASCII: Shopify issues no internationalised store names, so a
 * punycode ('xn--') name is refused (ADR 008).
 */
const MYSHOPIFY_PATTERN = /^(?!xn--)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.myshopify\.com$/;

export type ShopifyDomainResult = { ok: true; domain: string } | { ok: false; error: string };

function withSuffix(host: string): string {
  return host.endsWith(MYSHOPIFY_SUFFIX) ? host : `${host}${MYSHOPIFY_SUFFIX}`;
}

/**
 * §5: trim, lowercase, remove an http:// or https:// prefix and trailing slashes, and append '.myshopify.com' if
 * absent. Also drops what a pasted URL carries after the host (a port, a path, a query, a fragment) and one
 * trailing dot, and maps Unicode as the WHATWG host parser does (full-width 'ＭＹ－ＳＴＯＲＥ' → 'my-store'). Input
 * with no host in it ('', 'https://', '///') gives ''.
 */
export function normaliseShopifyDomain(input: string): string {
  const typed = typedHost(input);
  if (typed === '') return '';
  return withSuffix(toAsciiHostname(input) ?? typed);
}

/** True for a normalised value such as 'my-store.myshopify.com'. */
export function isMyshopifyDomain(host: string): boolean {
  return MYSHOPIFY_PATTERN.test(host);
}

/**
 * §5 field-level check of a typed domain: empty or whitespace gives 'Please enter your Shopify store domain';
 * otherwise the normalised value must be a valid myshopify name, else 'Please enter a valid Shopify store domain
 * ({host})', where {host} is the name as typed with the suffix (Unicode stays Unicode), or the text itself when it
 * holds no host ('https://').
 */
export function validateShopifyDomainInput(input: string): ShopifyDomainResult {
  if (typeof input !== 'string' || input.trim() === '') {
    return { ok: false, error: SHOPIFY_DOMAIN_MESSAGES.empty };
  }
  const domain = normaliseShopifyDomain(input);
  if (isMyshopifyDomain(domain)) return { ok: true, domain };
  const typed = typedHost(input);
  return { ok: false, error: SHOPIFY_DOMAIN_MESSAGES.invalid(typed === '' ? input.trim() : withSuffix(typed)) };
}

/** True when the text holds a host once normalised (not '', whitespace, 'https://' or '///'). */
function hasHost(value: string): boolean {
  return typedHost(value) !== '';
}

/**
 * §5 wizard Domain step (the situations are tabled in ADR 008):
 * - typed text that holds a host wins over a chosen store and is validated;
 * - otherwise a chosen store is used;
 * - otherwise typed text that holds no host ('https://', '///') gives 'Please enter or select a valid Shopify domain';
 * - otherwise (nothing typed) 'Please select a store or enter a domain manually' when the user has stores listed,
 *   else 'Please enter your Shopify store domain'.
 */
export function validateWizardDomain(params: {
  typed: string;
  selected: string | null;
  storesListed: boolean;
}): ShopifyDomainResult {
  const typed = typeof params.typed === 'string' ? params.typed : '';
  const selected = typeof params.selected === 'string' ? params.selected : '';
  if (hasHost(typed)) return validateShopifyDomainInput(typed);
  if (hasHost(selected)) return validateShopifyDomainInput(selected);
  if (typed.trim() !== '') return { ok: false, error: SHOPIFY_DOMAIN_MESSAGES.noSelection };
  return {
    ok: false,
    error: params.storesListed ? SHOPIFY_DOMAIN_MESSAGES.selectOrEnter : SHOPIFY_DOMAIN_MESSAGES.empty,
  };
}
