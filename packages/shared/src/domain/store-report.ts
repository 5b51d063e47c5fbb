import { MYSHOPIFY_SUFFIX } from './shopify-domain';
import { normaliseWebsiteDomain } from './website-domain';

/**
 * §1, §4, §5 "Report stores" (Earn 1 Free Credit): what a pasted text auto-fills, how a reported store is normalised,
 * and the texts of the dialog and of each row. Shared by the dialog and the server (modules/credits); every function
 * accepts any string and never throws.
 */

/** A report names exactly this many stores (§9). */
export const STORES_PER_REPORT = 5;

/** The server's reason for each row (§3 "Report row"), in the order the rules are checked. */
export const REPORT_ROW_REASONS = {
  valid: 'Valid',
  invalidDomain: 'This is not a valid store domain.',
  listedTwice: 'This store is listed twice in this report.',
  alreadyReported: 'You have already reported this store.',
  holdsLicense: 'This store holds a license of ours.',
  ownStore: 'This is your own store.',
  /** Issue 13: a valid row backed by evidence: the portal saw a token of ours on the store that no key covers. */
  seenUnlicensed: 'Seen running an unlicensed copy.',
} as const;
export type ReportRowReason = (typeof REPORT_ROW_REASONS)[keyof typeof REPORT_ROW_REASONS];

/** §5 and §8 texts of the report dialog. */
export const REPORT_MESSAGES = {
  allRequired: 'Please enter all 5 store domains.',
  autoFilled: (count: number): string => `Auto-filled ${count} store URLs`,
  credited: 'Credit added! All 5 stores were valid.',
  notQualified: 'Not all stores qualified. Check the validation status below.',
  failed: 'Please try again later.',
} as const;

/** A pasted entry that starts with http(s)://. */
const URL_ENTRY = /^https?:\/\/\S/i;
/**
 * A pasted entry that looks like a domain: dot-separated labels and a top-level part of 2+ letters, optionally
 * followed by a path ('shop.example.com/collections').
 */
const DOMAIN_ENTRY = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,}\.?(?:[:/?#]\S*)?$/u;

/**
 * §5: pasted text split on newlines, commas and spaces; an entry is kept when it starts with http(s):// or looks like
 * a domain with a top-level part of 2+ letters; at most 5, in the order pasted.
 */
export function parsePastedStores(text: string): string[] {
  return String(text)
    .split(/[\s,]+/u)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '' && (URL_ENTRY.test(entry) || DOMAIN_ENTRY.test(entry)))
    .slice(0, STORES_PER_REPORT);
}

/** §5 'Auto-filled {n} store URLs', only when more than one entry was found; null otherwise. */
export function autoFillMessage(found: number): string | null {
  return found > 1 ? REPORT_MESSAGES.autoFilled(found) : null;
}

/**
 * A reported store as the server compares it: the shared website-domain rules (lower case, scheme, port, path and
 * trailing slash or dot stripped, Unicode to punycode, a subdomain to its registrable domain; 'x.myshopify.com' stays
 * whole because myshopify.com is a public suffix). Null when it is not a domain a store could run on.
 */
export function normaliseReportedStore(input: string): string | null {
  const result = normaliseWebsiteDomain(input);
  return result.ok ? result.host : null;
}

/**
 * The hosts a license of ours could name for a reported store: the store itself and, for a store on its own domain,
 * the myshopify name with the same first label ('acme.com' → 'acme.myshopify.com'), since a licensed store usually
 * keeps the same name on both.
 */
export function licenseMatchHosts(store: string): string[] {
  if (store.endsWith(MYSHOPIFY_SUFFIX)) return [store];
  const name = store.split('.')[0] ?? '';
  return name === '' ? [store] : [store, `${name}${MYSHOPIFY_SUFFIX}`];
}
