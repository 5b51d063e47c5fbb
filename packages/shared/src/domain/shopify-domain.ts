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

/** §5: a lowercase alphanumeric-and-hyphen name followed by .myshopify.com. */
const MYSHOPIFY_PATTERN = /^[a-z0-9-]+\.myshopify\.com$/;

export type ShopifyDomainResult = { ok: true; domain: string } | { ok: false; error: string };

/**
 * §5: trim, lowercase, remove an http:// or https:// prefix and trailing slashes, and
 * append '.myshopify.com' if absent. Empty input (after stripping) stays ''.
 */
export function normaliseShopifyDomain(input: string): string {
  const host = String(input)
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\/+$/, '');
  if (host === '') return '';
  return host.endsWith(MYSHOPIFY_SUFFIX) ? host : `${host}${MYSHOPIFY_SUFFIX}`;
}

/** True for a normalised value such as 'my-store.myshopify.com'. */
export function isMyshopifyDomain(host: string): boolean {
  return MYSHOPIFY_PATTERN.test(host);
}

/**
 * §5 field-level check of a typed domain: empty or whitespace gives
 * 'Please enter your Shopify store domain'; otherwise the normalised value must be a
 * valid myshopify name, else 'Please enter a valid Shopify store domain ({host})'.
 */
export function validateShopifyDomainInput(input: string): ShopifyDomainResult {
  if (typeof input !== 'string' || input.trim() === '') {
    return { ok: false, error: SHOPIFY_DOMAIN_MESSAGES.empty };
  }
  const domain = normaliseShopifyDomain(input);
  if (!isMyshopifyDomain(domain)) {
    return { ok: false, error: SHOPIFY_DOMAIN_MESSAGES.invalid(domain) };
  }
  return { ok: true, domain };
}

/**
 * §5 wizard Domain step. Typed text wins over a picked store. With nothing typed, the
 * selected store is used; with nothing typed and nothing selected the error is
 * 'Please select a store or enter a domain manually' when stores are listed, else
 * 'Please enter or select a valid Shopify domain'. The chosen value is normalised and
 * must be a valid myshopify name.
 */
export function validateWizardDomain(params: {
  typed: string;
  selected: string | null;
  storesListed: boolean;
}): ShopifyDomainResult {
  const typed = typeof params.typed === 'string' ? params.typed.trim() : '';
  const selected = typeof params.selected === 'string' ? params.selected.trim() : '';
  const candidate = typed !== '' ? typed : selected;
  if (candidate === '') {
    return {
      ok: false,
      error: params.storesListed ? SHOPIFY_DOMAIN_MESSAGES.selectOrEnter : SHOPIFY_DOMAIN_MESSAGES.noSelection,
    };
  }
  return validateShopifyDomainInput(candidate);
}
